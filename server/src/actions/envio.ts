import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { MESSAGES, correoDocumento, correoSchema, validate } from 'shared/domain';
import type { CorreoDocumento } from 'shared/domain';
import { fail, invalidFields } from './registry.ts';

const MAX_PDF_BYTES = 10 * 1024 * 1024;

/**
 * The multipart body of an action that e-mails a PDF the browser made (an order to its supplier, an invoice to its
 * customer): the `archivo` PDF, checked by its first bytes (never the name or the declared type), the document `id`
 * and any other text fields (each also accepted in the query).
 */
export async function leerEnvioPdf(request: FastifyRequest): Promise<{ id: number; campos: Record<string, unknown>; pdf: Buffer }> {
  const maybe = request as Partial<Pick<FastifyRequest, 'isMultipart'>>;
  if (!maybe.isMultipart?.()) throw fail(MESSAGES.invalidFile, '1', 400);
  const campos: Record<string, unknown> = { ...(request.query as Record<string, unknown>) };
  let pdf: Buffer | undefined;
  try {
    for await (const part of request.parts({ limits: { fileSize: MAX_PDF_BYTES, files: 1 } })) {
      if (part.type === 'file') {
        const buffer = await (part as MultipartFile).toBuffer();
        if (part.fieldname === 'archivo') pdf = buffer;
      } else campos[part.fieldname] = part.value;
    }
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw fail(MESSAGES.fileTooLarge, '1', 400);
    throw fail(MESSAGES.invalidFile, '1', 400);
  }
  if (pdf?.subarray(0, 5).toString('latin1') !== '%PDF-') throw fail(MESSAGES.invalidFile, '1', 400);
  const raw = campos.id;
  const id = typeof raw === 'string' && /^\d{1,9}$/.test(raw) ? Number(raw) : typeof raw === 'number' ? raw : null;
  if (!id || !Number.isSafeInteger(id)) throw invalidFields({ id: MESSAGES.invalidNumber });
  return { id, campos, pdf };
}

/**
 * The mail the clerk saw and maybe changed (`email`, `asunto`, `mensaje`, each optional): what was sent, else the
 * defaults of `correoDocumento` (the same the dialog offered). A bad address is the field's 400.
 */
export function leerCorreo(campos: Record<string, unknown>, por: Parameters<typeof correoDocumento>[0]): CorreoDocumento & { email: string | null } {
  const r = validate(correoSchema, { email: campos.email, asunto: campos.asunto, mensaje: campos.mensaje });
  if (!r.ok) throw invalidFields(r.errors);
  const defecto = correoDocumento(por);
  return { email: (r.value.email as string | null) ?? null, asunto: (r.value.asunto as string | null) || defecto.asunto, mensaje: (r.value.mensaje as string | null) || defecto.mensaje };
}
