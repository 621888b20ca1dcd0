import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { DOCUMENTO_TIPOS, MESSAGES, numeroDocumento } from 'shared/domain';
import { defineAction, fail, invalidFields } from '../registry.ts';

const MAX_PDF_BYTES = 10 * 1024 * 1024;
const PEDIDO = DOCUMENTO_TIPOS.pedidocompra;

/** The multipart body: the `archivo` PDF and the `id` field (before or after it; or `id` in the query). */
async function leerEnvio(request: FastifyRequest): Promise<{ id: unknown; pdf: Buffer }> {
  const maybe = request as Partial<Pick<FastifyRequest, 'isMultipart'>>;
  if (!maybe.isMultipart?.()) throw fail(MESSAGES.invalidFile, '1', 400);
  let id: unknown = (request.query as Record<string, unknown>).id;
  let pdf: Buffer | undefined;
  try {
    for await (const part of request.parts({ limits: { fileSize: MAX_PDF_BYTES, files: 1 } })) {
      if (part.type === 'file') {
        const file = part as MultipartFile;
        const buffer = await file.toBuffer();
        if (file.fieldname === 'archivo') pdf = buffer;
      } else if (part.fieldname === 'id') id = part.value;
    }
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw fail(MESSAGES.fileTooLarge, '1', 400);
    throw fail(MESSAGES.invalidFile, '1', 400);
  }
  // A PDF by its first bytes, never by the name or the declared type.
  if (pdf?.subarray(0, 5).toString('latin1') !== '%PDF-' || !pdf) throw fail(MESSAGES.invalidFile, '1', 400);
  return { id, pdf: pdf as Buffer };
}

/** enviarcorreopedidocompra: mails the PDF the browser made of a pedido to its supplier (SMTP, or the outbox). */
export const correoCompraActions = [
  defineAction({
    name: 'enviarcorreopedidocompra',
    method: 'POST',
    flags: [...PEDIDO.flags],
    async handler({ request, app }) {
      const { id: rawId, pdf } = await leerEnvio(request);
      const id = typeof rawId === 'string' && /^\d{1,9}$/.test(rawId) ? Number(rawId) : typeof rawId === 'number' ? rawId : null;
      if (!id || !Number.isSafeInteger(id)) throw invalidFields({ id: MESSAGES.invalidNumber });
      const row = await app.db
        .selectFrom('documentos as d')
        .leftJoin('proveedores as p', 'p.id', 'd.proveedor_id')
        .select(['d.id', 'd.ejercicio', 'd.numero', 'd.fecha', 'p.email', 'p.razon_social'])
        .where('d.id', '=', id)
        .where('d.tipo', '=', PEDIDO.tipo)
        .executeTakeFirst();
      if (!row) throw fail(MESSAGES.notFound, '3');
      if (!row.email) throw fail(MESSAGES.proveedorSinEmail, '1');
      const conf = await app.db.selectFrom('configuracion').select(['razon_social', 'nombre_comercial']).orderBy('id').limit(1).executeTakeFirst();
      const empresa = conf?.nombre_comercial || conf?.razon_social || 'Manager TPV';
      const numero = numeroDocumento(PEDIDO.prefijo, row.ejercicio, row.numero);
      await app.mailer.send({
        to: row.email,
        subject: `Pedido ${numero} de ${empresa}`,
        text: `Estimados señores de ${row.razon_social ?? ''}:\n\nLes adjuntamos nuestro pedido ${numero} con fecha ${row.fecha.split('-').reverse().join('/')}.\n\nUn saludo,\n${empresa}\n`,
        attachments: [{ filename: `Pedido ${numero.replace(/\//g, '-')}.pdf`, contentType: 'application/pdf', content: pdf }],
      });
      return { RESULT: '0', message: MESSAGES.pedidoEnviadoPorCorreo, data: [{ id: row.id, email: row.email }] };
    },
  }),
];
