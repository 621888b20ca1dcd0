import crypto from 'node:crypto';
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MESSAGES } from 'shared/domain';
import type { Archivo } from 'shared/domain';
import { nowIso } from '../context.ts';
import { defineAction, fail } from './registry.ts';

export const MAX_UPLOAD_BYTES = 2 * 1024 * 1024;

const startsWith = (buf: Buffer, bytes: number[], at = 0) => bytes.every((b, i) => buf[at + i] === b);
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

/** The image type by its first bytes, never by the name or the declared type (SVG is refused: it can carry script). */
export function sniffImage(buf: Buffer): string | null {
  if (startsWith(buf, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(buf, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(buf, ascii('GIF87a')) || startsWith(buf, ascii('GIF89a'))) return 'image/gif';
  if (startsWith(buf, ascii('RIFF')) && startsWith(buf, ascii('WEBP'), 8)) return 'image/webp';
  if (buf.length >= 6 && startsWith(buf, [0, 0, 1, 0]) && buf.readUInt16LE(4) > 0) return 'image/x-icon';
  return null;
}

/** Reads the multipart field `archivo` whole, up to `maxBytes`; fails in Spanish otherwise. */
export async function readUpload(request: FastifyRequest, maxBytes: number): Promise<{ filename: string; buffer: Buffer }> {
  // Only multipart requests reach the context where the multipart plugin decorates the request.
  const maybe = request as Partial<Pick<FastifyRequest, 'isMultipart'>>;
  if (!maybe.isMultipart?.()) throw fail(MESSAGES.invalidFile, '1', 400);
  let part: MultipartFile | undefined;
  try {
    part = await request.file({ limits: { fileSize: maxBytes, files: 1 } });
  } catch {
    throw fail(MESSAGES.invalidFile, '1', 400);
  }
  if (part?.fieldname !== 'archivo') throw fail(MESSAGES.invalidFile, '1', 400);
  try {
    const buffer = await part.toBuffer();
    return { filename: part.filename, buffer };
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw fail(MESSAGES.fileTooLarge, '1', 400);
    throw fail(MESSAGES.invalidFile, '1', 400);
  }
}

const cleanName = (name: string) => name.replace(/[\\/\r\n"]/g, '_').slice(0, 200) || 'archivo';

export const archivoActions = [
  defineAction({
    name: 'subirarchivo',
    method: 'POST',
    async handler({ request, app }) {
      const { filename, buffer } = await readUpload(request, MAX_UPLOAD_BYTES);
      const tipo = sniffImage(buffer);
      if (!tipo) throw fail(MESSAGES.invalidFile, '1', 400);
      const archivo = { id: crypto.randomUUID(), nombre: cleanName(filename), tipo, tamano: buffer.length, datos: buffer, creado: nowIso() };
      await app.db.transaction().execute((trx) => trx.insertInto('archivos').values(archivo).execute());
      const data: Archivo = { id: archivo.id, url: `/archivos/${archivo.id}`, nombre: archivo.nombre, tipo };
      return { RESULT: '0', data: [data] };
    },
  }),
];

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** `GET /archivos/:id`: public (logo and favicon show on the login screen); ids are random UUIDs, files never change. */
export function registerArchivoRoute(app: FastifyInstance): void {
  app.get<{ Params: { id: string } }>('/archivos/:id', async (request, reply) => {
    const { id } = request.params;
    const row = UUID_RE.test(id)
      ? await app.manager.db.selectFrom('archivos').select(['tipo', 'datos']).where('id', '=', id).executeTakeFirst()
      : undefined;
    if (!row) return reply.code(404).send({ RESULT: '3', message: MESSAGES.notFound });
    return reply
      .header('Content-Type', row.tipo)
      .header('Cache-Control', 'public, max-age=31536000, immutable')
      .header('X-Content-Type-Options', 'nosniff')
      .header('Content-Disposition', 'inline')
      .send(Buffer.from(row.datos));
  });
}
