import type { Schema } from './validation';

/** What a document's e-mail says unless the clerk changes it: its subject and message (docs/documentos.md). */
export type CorreoDocumento = { asunto: string; mensaje: string };

/** The words of each document mailed: its name in the subject and how the message names it. */
const NOMBRES: Record<string, { asunto: string; en: string }> = {
  factura: { asunto: 'Factura', en: 'la factura' },
  rectificativa: { asunto: 'Factura rectificativa', en: 'la factura rectificativa' },
  pedidocompra: { asunto: 'Pedido', en: 'nuestro pedido' },
};

/**
 * The subject and message offered when mailing a document ('Factura A 2026/000002 de Ferretería Pérez';
 * 'Estimados señores de …: Les adjuntamos la factura …'); the server sends the same when none is given.
 */
export function correoDocumento(d: { tipo: string; numero: string; fecha: string; destinatario?: string | null; empresa: string; observaciones?: string | null }): CorreoDocumento {
  const n = NOMBRES[d.tipo] ?? { asunto: 'Documento', en: 'el documento' };
  const fecha = d.fecha.split('-').reverse().join('/');
  const nota = d.observaciones?.trim() ? `\n\n${d.observaciones.trim()}` : '';
  return {
    asunto: `${n.asunto} ${d.numero} de ${d.empresa}`,
    mensaje: `Estimados señores de ${d.destinatario ?? ''}:\n\nLes adjuntamos ${n.en} ${d.numero} con fecha ${fecha}.${nota}\n\nUn saludo,\n${d.empresa}\n`,
  };
}

/** The mail's fields as `enviarfactura` and `enviarcorreopedidocompra` take them (all optional: the defaults above). */
export const correoSchema = {
  email: { type: 'email', max: 200 },
  asunto: { type: 'string', max: 200 },
  mensaje: { type: 'string', max: 5000 },
} satisfies Schema;
