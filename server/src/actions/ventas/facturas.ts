import { DOCUMENTO_TIPOS, ESTADOS_ENVIO, FORMAS_COBRO_ADMITIDAS, MESSAGES, numeroDe } from 'shared/domain';
import { documentosActions } from '../documentos.ts';
import type { RegistroFacturacion, Schema } from 'shared/domain';
import { readDocumento } from '../../documentos/engine.ts';
import { tiposFactura } from '../../documentos/facturas.ts';
import { recalcularCuenta, registrarCobro } from '../../documentos/cobros.ts';
import { comprobarCadenas } from '../../fiscal/verificacion.ts';
import { nowIso } from '../../context.ts';
import { listSchema, paging } from '../comun.ts';
import { leerCorreo, leerEnvioPdf } from '../envio.ts';
import { defineAction, fail } from '../registry.ts';
import { hfaActions } from './hfa.ts';
import { cobroDeRemesa } from './remesas.ts';

/**
 * Facturas' own actions besides the engine's (issue 8): the cobro of an issued invoice (of a rectificativa, its refund;
 * issue 17: in parts, each one a row of `cobros`, removed one by one with eliminarcobro), its PDF e-mailed to the
 * customer, and the VERI*FACTU records (their list and the chain check). hfa is in hfa.ts.
 */

const FLAGS = ['ventas' as const, 'ventas_facturas' as const];
const FACTURA = DOCUMENTO_TIPOS.factura;
const TIPOS = [FACTURA.tipo, DOCUMENTO_TIPOS.rectificativa.tipo];

const registrosInput = {
  // 'orden': each chain in its order (by issuer); 'creado' (issue 22, the records screen): by when each was made.
  ...listSchema(['orden', 'creado'] as const),
  documento_id: { type: 'int', min: 1 },
  tipo: { type: 'enum', values: ['alta', 'anulacion'] },
  estado_envio: { type: 'enum', values: ESTADOS_ENVIO },
} as const satisfies Schema;

export const facturaActions = [
  ...documentosActions(tiposFactura),
  ...hfaActions,

  defineAction({
    name: 'cobrarfactura',
    method: 'POST',
    flags: FLAGS,
    input: {
      id: { type: 'int', required: true, min: 1 },
      fecha: { type: 'date' },
      // How it was paid (efectivo, tarjeta, transferencia, recibo…); a forma de pago too, as before (issue 26).
      forma: { type: 'enum', values: FORMAS_COBRO_ADMITIDAS },
      // Issue 17: cents of a partial cobro (or refund); absent, everything left.
      importe: { type: 'int', min: 1 },
    } as const satisfies Schema,
    async handler({ input, app, user }) {
      const { doc, reembolso } = await app.db.transaction().execute(async (trx) => {
        const d = await trx
          .selectFrom('documentos')
          .select(['id', 'tipo', 'estado', 'forma_pago'])
          .where('id', '=', input.id)
          .where('tipo', 'in', TIPOS)
          .$if(app.dialect === 'postgres', (q) => q.forUpdate())
          .executeTakeFirst();
        if (!d) throw fail(MESSAGES.notFound, '3');
        if (d.estado !== 'emitida') throw fail(MESSAGES.facturaNoEmitida, '1', 400);
        // No date: its cobros removed (cobros entered by mistake are undone).
        if (!input.fecha) {
          // Issue 26: a cobro a remesa recorded goes only by returning its receipt.
          const deRemesa = await cobroDeRemesa(trx, (await trx.selectFrom('cobros').select('id').where('documento_id', '=', d.id).execute()).map((x) => x.id));
          if (deRemesa) throw fail(deRemesa, '1', 400);
          await trx.deleteFrom('cobros').where('documento_id', '=', d.id).execute();
          await recalcularCuenta(trx, d.id);
          return { doc: d, reembolso: d.tipo === DOCUMENTO_TIPOS.rectificativa.tipo };
        }
        const c = await registrarCobro(trx, d, { fecha: input.fecha, forma: input.forma ?? d.forma_pago ?? null, importe: input.importe, usuarioId: user!.id, creado: nowIso() });
        await trx.updateTable('documentos').set({ modificado: nowIso(), modificado_por: user!.id }).where('id', '=', d.id).execute();
        return { doc: d, reembolso: c.importe < 0 };
      });
      const leido = await readDocumento(app.db, DOCUMENTO_TIPOS[doc.tipo as 'factura'], doc.id);
      // A refund is money paid out to the customer.
      const message = reembolso ? MESSAGES.reembolsoRegistrado : MESSAGES.cobroRegistrado;
      return { RESULT: '0', message, data: [leido!] };
    },
  }),

  defineAction({
    name: 'eliminarcobro',
    method: 'POST',
    flags: FLAGS,
    input: { id: { type: 'int', required: true, min: 1 } } as const satisfies Schema,
    async handler({ input, app, user }) {
      const doc = await app.db.transaction().execute(async (trx) => {
        const c = await trx.selectFrom('cobros').select(['id', 'documento_id']).where('id', '=', input.id).executeTakeFirst();
        if (!c) throw fail(MESSAGES.notFound, '3');
        const deRemesa = await cobroDeRemesa(trx, [c.id]);
        if (deRemesa) throw fail(deRemesa, '1', 400);
        const d = await trx
          .selectFrom('documentos')
          .select(['id', 'tipo'])
          .where('id', '=', c.documento_id)
          .$if(app.dialect === 'postgres', (q) => q.forUpdate())
          .executeTakeFirstOrThrow();
        await trx.deleteFrom('cobros').where('id', '=', c.id).execute();
        await recalcularCuenta(trx, d.id);
        await trx.updateTable('documentos').set({ modificado: nowIso(), modificado_por: user!.id }).where('id', '=', d.id).execute();
        return d;
      });
      const leido = await readDocumento(app.db, DOCUMENTO_TIPOS[doc.tipo as 'factura'], doc.id);
      return { RESULT: '0', message: MESSAGES.cobroEliminado, data: [leido!] };
    },
  }),

  defineAction({
    name: 'enviarfactura',
    method: 'POST',
    flags: FLAGS,
    async handler({ request, app }) {
      const { id, campos, pdf } = await leerEnvioPdf(request);
      const row = await app.db
        .selectFrom('documentos as d')
        .leftJoin('clientes as c', 'c.id', 'd.cliente_id')
        .leftJoin('series as s', 's.id', 'd.serie_id')
        .select(['d.id', 'd.tipo', 'd.estado', 'd.ejercicio', 'd.numero', 'd.fecha', 'd.observaciones_cliente', 's.codigo as serie_codigo', 'c.email', 'c.razon_social'])
        .where('d.id', '=', id)
        .where('d.tipo', 'in', TIPOS)
        .executeTakeFirst();
      if (!row) throw fail(MESSAGES.notFound, '3');
      if (row.estado === 'borrador') throw fail(MESSAGES.facturaNoEmitida, '1', 400);
      const conf = await app.db.selectFrom('configuracion').select(['razon_social', 'nombre_comercial']).orderBy('id').limit(1).executeTakeFirst();
      const empresa = conf?.nombre_comercial || conf?.razon_social || 'Manager TPV';
      const def = DOCUMENTO_TIPOS[row.tipo as 'factura'];
      const numero = numeroDe(def, row);
      const correo = leerCorreo(campos, { tipo: row.tipo, numero, fecha: row.fecha, destinatario: row.razon_social, empresa, observaciones: row.observaciones_cliente });
      const to = correo.email ?? row.email;
      if (!to) throw fail(MESSAGES.clienteSinEmail, '1', 400);
      await app.mailer.send({
        to,
        subject: correo.asunto,
        text: correo.mensaje,
        attachments: [{ filename: `Factura ${numero.replace(/\//g, '-')}.pdf`, contentType: 'application/pdf', content: pdf }],
      });
      return { RESULT: '0', message: MESSAGES.facturaEnviadaPorCorreo, data: [{ id: row.id, email: to }] };
    },
  }),

  defineAction({
    name: 'listadoregistrosfacturacion',
    method: 'GET',
    flags: FLAGS,
    input: registrosInput,
    async handler({ input, app }) {
      let q = app.db.selectFrom('registros_facturacion as r').innerJoin('documentos as d', 'd.id', 'r.documento_id');
      if (input.id !== null) q = q.where('r.id', '=', input.id);
      if (input.documento_id !== null) q = q.where('r.documento_id', '=', input.documento_id);
      if (input.tipo !== null) q = q.where('r.tipo', '=', input.tipo);
      if (input.estado_envio !== null) q = q.where('r.estado_envio', '=', input.estado_envio);
      const { n } = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      if (input.id !== null && Number(n) === 0) throw fail(MESSAGES.notFound, '3');
      const p = paging(input);
      const rows = await q
        .select([
          'r.id', 'r.orden', 'r.tipo', 'r.documento_id', 'd.tipo as documento_tipo', 'r.num_serie', 'r.emisor as id_emisor', 'r.fecha_expedicion',
          'r.tipo_factura', 'r.cuota_total', 'r.importe_total', 'r.huella_anterior', 'r.huella', 'r.fecha_hora_huso', 'r.xml', 'r.estado_envio',
          // Issue 9: the AEAT's answer, and the subsanación that corrects the record (if any).
          'r.csv', 'r.codigo_error', 'r.descripcion_error', 'r.enviado', 'r.subsana_id',
          // Issue 16: generated during an outage of the submission (sent with Incidencia = S).
          'r.incidencia',
          // Issue 22: what it was made for, frozen on it (its QR's host and legend).
          'r.entorno', 'r.demo', 'r.verifactu',
          (eb) => eb.selectFrom('registros_facturacion as s').select((e) => e.fn.min('s.id').as('x')).whereRef('s.subsana_id', '=', 'r.id').as('subsanado_por'),
        ])
        .$if(input.orden === 'creado', (x) => x.orderBy('r.creado', p.dir).orderBy('r.id', p.dir))
        .$if(input.orden !== 'creado', (x) => x.orderBy('r.emisor').orderBy('r.orden', p.dir))
        .limit(p.limit)
        .offset(p.offset)
        .execute();
      return { RESULT: '0', data: rows as RegistroFacturacion[], total: Number(n) };
    },
  }),

  defineAction({
    name: 'comprobarregistrosfacturacion',
    method: 'GET',
    flags: FLAGS,
    async handler({ app }) {
      const data = await comprobarCadenas(app.db);
      const correcto = data.every((c) => c.correcto);
      return { RESULT: '0', message: correcto ? MESSAGES.cadenaCorrecta : MESSAGES.cadenaRota, data };
    },
  }),
];
