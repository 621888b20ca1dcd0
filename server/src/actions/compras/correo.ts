import { DOCUMENTO_TIPOS, MESSAGES, numeroDocumento } from 'shared/domain';
import { leerCorreo, leerEnvioPdf } from '../envio.ts';
import { defineAction, fail } from '../registry.ts';

const PEDIDO = DOCUMENTO_TIPOS.pedidocompra;

/** enviarcorreopedidocompra: mails the PDF the browser made of a pedido to its supplier (SMTP, or the outbox). */
export const correoCompraActions = [
  defineAction({
    name: 'enviarcorreopedidocompra',
    method: 'POST',
    flags: [...PEDIDO.flags],
    async handler({ request, app }) {
      const { id, campos, pdf } = await leerEnvioPdf(request);
      const row = await app.db
        .selectFrom('documentos as d')
        .leftJoin('proveedores as p', 'p.id', 'd.proveedor_id')
        .select(['d.id', 'd.ejercicio', 'd.numero', 'd.fecha', 'd.observaciones_cliente', 'p.email', 'p.razon_social'])
        .where('d.id', '=', id)
        .where('d.tipo', '=', PEDIDO.tipo)
        .executeTakeFirst();
      if (!row) throw fail(MESSAGES.notFound, '3');
      const conf = await app.db.selectFrom('configuracion').select(['razon_social', 'nombre_comercial']).orderBy('id').limit(1).executeTakeFirst();
      const empresa = conf?.nombre_comercial || conf?.razon_social || 'Manager TPV';
      const numero = numeroDocumento(PEDIDO.prefijo, row.ejercicio, row.numero);
      const correo = leerCorreo(campos, { tipo: PEDIDO.tipo, numero, fecha: row.fecha, destinatario: row.razon_social, empresa, observaciones: row.observaciones_cliente });
      const to = correo.email ?? row.email;
      if (!to) throw fail(MESSAGES.proveedorSinEmail, '1');
      await app.mailer.send({
        to,
        subject: correo.asunto,
        text: correo.mensaje,
        attachments: [{ filename: `Pedido ${numero.replace(/\//g, '-')}.pdf`, contentType: 'application/pdf', content: pdf }],
      });
      return { RESULT: '0', message: MESSAGES.pedidoEnviadoPorCorreo, data: [{ id: row.id, email: to }] };
    },
  }),
];
