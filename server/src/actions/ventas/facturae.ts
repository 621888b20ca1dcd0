import type { Kysely } from 'kysely';
import { DOCUMENTO_TIPOS, MESSAGES, datosParte, esTransferencia, numeroDe } from 'shared/domain';
import type { DatosParte, DesgloseIva, EmisionDocumento, Schema } from 'shared/domain';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/schema.ts';
import { claveSecreta, descifrar, desempaquetar } from '../../fiscal/certificado.ts';
import { MOTIVOS_RECTIFICACION, PAIS_ALFA3, contenidoFacturae, extranjera, faltaDireccion, motivoRectificacion } from '../../fiscal/facturae.ts';
import type { DatosFacturae, MotivoRectificacion } from '../../fiscal/facturae.ts';
import { firmanteDePkcs12, firmarFacturae } from '../../fiscal/xades.ts';
import { FileDownload, defineAction, fail } from '../registry.ts';

/**
 * Facturae 3.2.2 of an emitted invoice or rectificativa (issue 16): `comprobarfacturae` says whether it can be
 * downloaded (and why not), `descargarfacturae` answers the signed file (fiscal/facturae.ts, fiscal/xades.ts).
 *
 * Issued means fixed: the parties are those the invoice stored at emission (`emision.partes`: identifier, name and
 * address; the customer's DIR3 units). An invoice issued before those were stored keeps its stored name and NIF and
 * takes the address from today's records. A customer that was not a public administration at emission and is one now
 * gets today's DIR3 units (FACe needs them; they are not printed on the invoice).
 */

const FLAGS = ['ventas' as const, 'ventas_facturas' as const];
const TIPOS = [DOCUMENTO_TIPOS.factura.tipo, DOCUMENTO_TIPOS.rectificativa.tipo];

type Fila = {
  id: number;
  tipo: string;
  estado: string;
  fecha: string;
  ejercicio: number;
  numero: number | null;
  serie_codigo: string | null;
  serie_actual: string | null;
  cliente_id: number | null;
  tipo_factura: string | null;
  factura_id: number | null;
  modo_rectificacion: string | null;
  base: number;
  iva: number;
  recargo: number;
  retencion: number;
  retencion_importe: number;
  total: number;
  con_recargo: number;
  desglose: string | null;
  emision: string | null;
  fecha_operacion: string | null;
  observaciones_cliente: string | null;
  forma_pago: string | null;
};

const COLUMNAS_CLIENTE = [
  'razon_social', 'nombre_comercial', 'nif', 'pais', 'tipo_id', 'direccion', 'codigo_postal', 'poblacion', 'provincia', 'telefono', 'email',
  'administracion_publica', 'dir3_oficina_contable', 'dir3_organo_gestor', 'dir3_unidad_tramitadora', 'dir3_organo_proponente',
] as const;

/** The number of a document in its serie without the serie: '2026/000012'. */
const enSerie = (ejercicio: number, numero: number | null) => `${ejercicio}/${String(numero ?? 0).padStart(6, '0')}`;

/** Everything the file needs, from what the invoice stored; refuses (RESULT 1, the user's message) what FACe can't take. */
async function datosDe(db: Kysely<Database>, id: number, motivo: MotivoRectificacion | null = null): Promise<{ datos: DatosFacturae; numero: string }> {
  const d = (await db
    .selectFrom('documentos as d')
    .leftJoin('series as s', 's.id', 'd.serie_id')
    .select([
      'd.id', 'd.tipo', 'd.estado', 'd.fecha', 'd.ejercicio', 'd.numero', 'd.serie_codigo', 's.codigo as serie_actual', 'd.cliente_id', 'd.tipo_factura',
      'd.factura_id', 'd.modo_rectificacion', 'd.base', 'd.iva', 'd.recargo', 'd.retencion', 'd.retencion_importe', 'd.total', 'd.con_recargo',
      'd.desglose', 'd.emision', 'd.fecha_operacion', 'd.observaciones_cliente', 'd.forma_pago',
    ])
    .where('d.id', '=', id)
    .where('d.tipo', 'in', TIPOS)
    .executeTakeFirst()) as Fila | undefined;
  if (!d) throw fail(MESSAGES.notFound, '3');
  if (d.estado !== 'emitida' || d.numero === null) throw fail(MESSAGES.facturaNoEmitida, '1', 400);
  if (d.cliente_id === null) throw fail(MESSAGES.facturaeSinCliente, '1', 400);
  const serie = d.serie_codigo ?? d.serie_actual ?? '';
  const emision = (d.emision ? JSON.parse(d.emision) : null) as EmisionDocumento | null;

  // The parties: as stored at emission; an older invoice's address from today's records.
  const cliente = await db.selectFrom('clientes').select(COLUMNAS_CLIENTE).where('id', '=', d.cliente_id).executeTakeFirst();
  const hoyCliente: DatosParte | null = cliente
    ? datosParte({ ...cliente, administracion_publica: Number(cliente.administracion_publica ?? 0) === 1 ? 1 : 0 })
    : null;
  let receptor: DatosParte | null = emision?.partes?.destinatario ?? null;
  if (!receptor && hoyCliente) {
    receptor = { ...hoyCliente, ...(emision?.destinatario ? { nombre: emision.destinatario.nombre, nif: emision.destinatario.nif ?? hoyCliente.nif } : {}) };
  }
  if (!receptor) throw fail(MESSAGES.facturaeSinCliente, '1', 400);
  if (receptor.administracion_publica !== 1 && hoyCliente?.administracion_publica === 1) {
    receptor = {
      ...receptor,
      administracion_publica: 1,
      dir3_oficina_contable: hoyCliente.dir3_oficina_contable,
      dir3_organo_gestor: hoyCliente.dir3_organo_gestor,
      dir3_unidad_tramitadora: hoyCliente.dir3_unidad_tramitadora,
      dir3_organo_proponente: hoyCliente.dir3_organo_proponente,
    };
  }
  let emisor: DatosParte | null = emision?.partes?.emisor ?? null;
  if (!emisor) {
    const c = await db
      .selectFrom('configuracion')
      .select(['razon_social', 'nombre_comercial', 'nif', 'direccion', 'codigo_postal', 'poblacion', 'provincia', 'telefono', 'email'])
      .orderBy('id')
      .limit(1)
      .executeTakeFirstOrThrow();
    emisor = datosParte({ ...c, nif: emision?.emisor.nif ?? c.nif, pais: 'ES', tipo_id: null });
    if (emision?.emisor) emisor.nombre = c.razon_social || emision.emisor.nombre;
  }
  // A customer abroad (issue 16): its country must be one Facturae's CountryType names; OverseasAddress needs less.
  if (extranjera(receptor) && !PAIS_ALFA3[receptor.pais!.toUpperCase()]) throw fail(MESSAGES.facturaePaisNoAdmitido.replace('{pais}', receptor.pais!.toUpperCase()), '1', 400);
  if (faltaDireccion(emisor)) throw fail(MESSAGES.facturaeSinDireccion.replace('{parte}', 'la empresa (Configuración)'), '1', 400);
  if (faltaDireccion(receptor)) {
    throw fail(extranjera(receptor) ? MESSAGES.facturaeSinDireccionExtranjera : MESSAGES.facturaeSinDireccion.replace('{parte}', 'el cliente'), '1', 400);
  }
  // The company's account for a transfer: today's setting (it is where the payment is to go now).
  const iban = (await db.selectFrom('configuracion').select('iban').orderBy('id').limit(1).executeTakeFirst())?.iban ?? null;

  const lineas = await db
    .selectFrom('documento_lineas')
    .select(['codigo', 'descripcion', 'cantidad', 'precio', 'descuento', 'tipo_iva', 'operacion'])
    .where('documento_id', '=', d.id)
    .orderBy('orden')
    .orderBy('id')
    .execute();

  let rectifica: DatosFacturae['rectifica'] = null;
  if (d.tipo === DOCUMENTO_TIPOS.rectificativa.tipo && d.factura_id !== null) {
    const f = await db
      .selectFrom('documentos as f')
      .leftJoin('series as s', 's.id', 'f.serie_id')
      .select(['f.fecha', 'f.ejercicio', 'f.numero', 'f.serie_codigo', 's.codigo as serie_actual'])
      .where('f.id', '=', d.factura_id)
      .executeTakeFirstOrThrow();
    rectifica = {
      numero: enSerie(Number(f.ejercicio), f.numero),
      serie: f.serie_codigo ?? f.serie_actual ?? null,
      fecha: f.fecha,
      tipoFactura: d.tipo_factura ?? 'R1',
      modo: d.modo_rectificacion === 'sustitucion' ? 'sustitucion' : 'diferencias',
      // The reason the user chose at download; else the one the R type implies.
      motivo: motivo ?? motivoRectificacion(d.tipo_factura ?? 'R1'),
    };
  }

  const datos: DatosFacturae = {
    numero: enSerie(Number(d.ejercicio), d.numero),
    serie,
    fecha: d.fecha,
    fechaOperacion: d.fecha_operacion,
    simplificada: d.tipo_factura === 'F2' || d.tipo_factura === 'R5',
    emisor,
    receptor,
    lineas: lineas.map((l) => ({ ...l, cantidad: Number(l.cantidad), precio: Number(l.precio), descuento: Number(l.descuento) })),
    desglose: (d.desglose ? JSON.parse(d.desglose) : []) as DesgloseIva[],
    conRecargo: Number(d.con_recargo) === 1,
    base: Number(d.base),
    iva: Number(d.iva),
    recargo: Number(d.recargo),
    retencion: Number(d.retencion),
    retencionImporte: Number(d.retencion_importe),
    total: Number(d.total),
    observaciones: d.observaciones_cliente,
    formaPago: d.forma_pago,
    iban,
    rectifica,
  };
  const numero = numeroDe(DOCUMENTO_TIPOS[d.tipo as 'factura'], { ejercicio: Number(d.ejercicio), numero: d.numero, serie_codigo: serie });
  return { datos, numero };
}

/** The company's certificate (the one stored for VERI*FACTU), or the reason it can't sign. */
async function certificado(app: AppContext, hoy: string) {
  const s = await app.db.selectFrom('verifactu').select(['certificado', 'certificado_iv', 'certificado_tag', 'caduca']).where('id', '=', 1).executeTakeFirst();
  if (!s?.certificado || !s.certificado_iv || !s.certificado_tag) throw fail(MESSAGES.facturaeSinCertificado, '1', 400);
  if (s.caduca && s.caduca < hoy) throw fail(MESSAGES.facturaeCertificadoCaducado.replace('{fecha}', s.caduca.split('-').reverse().join('/')), '1', 400);
  return s as { certificado: Buffer; certificado_iv: Buffer; certificado_tag: Buffer };
}

const idInput = { id: { type: 'int', required: true, min: 1 } } as const satisfies Schema;
/** The download takes the corrective reason code of a rectificativa (Facturae ReasonCode; default: the derived one). */
const descargaInput = { ...idInput, motivo: { type: 'enum', values: Object.keys(MOTIVOS_RECTIFICACION) as [string, ...string[]] } } as const satisfies Schema;

export const facturaeActions = [
  defineAction({
    name: 'comprobarfacturae',
    method: 'GET',
    flags: FLAGS,
    input: idInput,
    async handler({ input, app }) {
      let motivo: string | null = null;
      let datos: DatosFacturae | null = null;
      try {
        datos = (await datosDe(app.db, input.id)).datos;
        await certificado(app, new Date().toISOString().slice(0, 10));
      } catch (err) {
        const body = (err as { body?: { RESULT?: string; message?: string } }).body;
        if (body?.RESULT === '3') throw err;
        if (!body?.message) throw err;
        motivo = body.message;
      }
      const c = await app.db
        .selectFrom('documentos as d')
        .innerJoin('clientes as c', 'c.id', 'd.cliente_id')
        .select('c.administracion_publica')
        .where('d.id', '=', input.id)
        .executeTakeFirst();
      // A rectificativa: the reason codes to choose from, the derived one first chosen; a transfer without the company's IBAN: a notice.
      const rectificacion = datos?.rectifica
        ? { motivo: datos.rectifica.motivo ?? motivoRectificacion(datos.rectifica.tipoFactura), motivos: Object.entries(MOTIVOS_RECTIFICACION).map(([codigo, texto]) => ({ codigo, texto })) }
        : null;
      const aviso = datos && esTransferencia(datos.formaPago) && !datos.iban?.trim() ? MESSAGES.facturaeSinIban : null;
      return {
        RESULT: '0',
        data: [{ id: input.id, disponible: motivo === null, motivo, administracion_publica: Number(c?.administracion_publica ?? 0) === 1 ? 1 : 0, rectificacion, aviso }],
      };
    },
  }),

  defineAction({
    name: 'descargarfacturae',
    method: 'GET',
    flags: FLAGS,
    input: descargaInput,
    async handler({ input, app }) {
      const { datos, numero } = await datosDe(app.db, input.id, (input.motivo as MotivoRectificacion | null) ?? null);
      const s = await certificado(app, new Date().toISOString().slice(0, 10));
      const { pfx, password } = desempaquetar(descifrar(claveSecreta(app.dataDir), { datos: s.certificado, iv: s.certificado_iv, tag: s.certificado_tag }));
      const xml = firmarFacturae(contenidoFacturae(datos), firmanteDePkcs12(pfx, password));
      const nombre = `Facturae ${numero.replace(/[^0-9A-Za-z-]+/g, '-')}.xsig`;
      return new FileDownload(nombre, 'application/xml; charset=utf-8', xml);
    },
  }),
];
