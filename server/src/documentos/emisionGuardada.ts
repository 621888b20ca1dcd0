import type { Kysely, Transaction } from 'kysely';
import { bloqueEmpresa, bloqueTercero, datosParte, normalizeNif } from 'shared/domain';
import type { BloqueParte, DatosParte, Documento, EmisionDocumento, Impuesto } from 'shared/domain';
import { fueraDeActividad } from '../actividad/registro.ts';
import type { Database } from '../db/schema.ts';
import { dialectOf } from './sql.ts';

/**
 * Issue 22: the issued data of every document with a VERI*FACTU record. Invoices and rectificativas store them at
 * emission since issue 16 (`documentos.emision`); tickets, and the invoices made before, have none, and printed today's
 * company and customer. At the first read of such a document they are reconstructed ONCE and stored (in a
 * transaction, only where still missing): the issuer's name and NIF and the recipient's name and identifier as its
 * first registro de alta says them (what the AEAT has); the addresses, trade name and phone — which the record does not
 * carry — as they were at that instant: today's configuration and customer with every change audited since
 * (`actividad`, whose `antes` holds the fields as they were) undone, newest first. From then on every print and
 * reprint uses what is stored.
 */

const CON_REGISTRO = new Set(['factura', 'rectificativa', 'ticket']);

const desescapar = (v: string) => v.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');
const campo = (xml: string, tag: string): string | null => {
  const m = new RegExp(`<sf:${tag}>([^<]*)</sf:${tag}>`).exec(xml);
  return m ? desescapar(m[1]).trim() : null;
};
const limpio = (v: string | null | undefined) => String(v ?? '').toUpperCase().replace(/[^A-Z0-9]/g, '');

type Fila = Record<string, unknown>;

/** A row as it was at `instante`: today's, with the `antes` of every audited change after it applied, newest first. */
async function comoEra<T extends Fila>(trx: Transaction<Database>, entidad: string, id: number | null, fila: T, instante: string): Promise<T> {
  const cambios = await trx
    .selectFrom('actividad')
    .select('antes')
    .where('entidad', '=', entidad)
    .$if(id !== null, (q) => q.where('entidad_id', '=', id))
    .where('fecha', '>', instante)
    .orderBy('id', 'desc')
    .execute();
  const era: Fila = { ...fila };
  for (const c of cambios) {
    if (!c.antes) continue;
    try {
      Object.assign(era, JSON.parse(c.antes));
    } catch {
      // A line that is not JSON says nothing of the fields.
    }
  }
  return era as T;
}

const DIRECCION = ['direccion', 'codigo_postal', 'poblacion', 'provincia', 'telefono', 'email'] as const;
const texto = (v: unknown) => (v === null || v === undefined ? null : String(v));
/** A public administration's data (Facturae, DIR3 units), as the customer had them. */
const publica = (c: Fila) => ({
  administracion_publica: (Number(c.administracion_publica ?? 0) === 1 ? 1 : 0) as 0 | 1,
  dir3_oficina_contable: texto(c.dir3_oficina_contable), dir3_organo_gestor: texto(c.dir3_organo_gestor),
  dir3_unidad_tramitadora: texto(c.dir3_unidad_tramitadora), dir3_organo_proponente: texto(c.dir3_organo_proponente),
});

/** What the document printed when issued, from its first registro de alta and the audited history. */
export async function reconstruirEmision(
  trx: Transaction<Database>,
  doc: { id: number; cliente_id?: number | null },
  alta: { xml: string; creado: string },
): Promise<EmisionDocumento> {
  const nif = campo(alta.xml, 'IDEmisorFactura') ?? '';
  const nombre = campo(alta.xml, 'NombreRazonEmisor') ?? nif;
  const hoy = (await trx.selectFrom('configuracion').selectAll().orderBy('id').limit(1).executeTakeFirst()) as Fila | undefined;
  const c = hoy ? await comoEra(trx, 'configuracion', null, hoy, alta.creado) : null;
  // The address is the company's only if it is the same taxpayer (the NIF cannot change once a record exists).
  const misma = !!c && normalizeNif(String(c.nif ?? '')) === normalizeNif(nif);
  const dir = (f: Fila | null) => Object.fromEntries(DIRECCION.map((k) => [k, texto(f?.[k])]));
  const emisor: BloqueParte = misma
    ? bloqueEmpresa({ ...dir(c), razon_social: nombre, nombre_comercial: texto(c!.nombre_comercial), nif, impuesto: (c!.impuesto as Impuesto | null) ?? null })
    : { nombre, nif, lineas: [] };
  const emisorDatos: DatosParte = datosParte({
    ...(misma ? dir(c) : {}), razon_social: nombre, nombre_comercial: misma ? texto(c!.nombre_comercial) : null, nif, pais: 'ES', tipo_id: null,
  });

  const cli = doc.cliente_id
    ? ((await trx.selectFrom('clientes').selectAll().where('id', '=', doc.cliente_id).executeTakeFirst()) as Fila | undefined)
    : undefined;
  const cliente = cli ? await comoEra(trx, 'cliente', doc.cliente_id!, cli, alta.creado) : null;
  const bloqueDest = /<sf:IDDestinatario>([\s\S]*?)<\/sf:IDDestinatario>/.exec(alta.xml)?.[1];
  let destinatario: BloqueParte | null = null;
  let destDatos: DatosParte | null = null;
  if (bloqueDest) {
    const dNombre = campo(bloqueDest, 'NombreRazon') ?? '';
    const dNif = campo(bloqueDest, 'NIF');
    const ident = dNif ?? campo(bloqueDest, 'ID') ?? '';
    const pais = dNif ? 'ES' : (campo(bloqueDest, 'CodigoPais') ?? null);
    const tipoId = dNif ? 'NIF' : (campo(bloqueDest, 'IDType') ?? null);
    // The customer's address where it is the same party (its identifier, with or without the country prefix).
    const cl = limpio(cliente?.nif as string | null);
    const mismo = !!cliente && !!cl && (cl === limpio(ident) || cl.slice(2) === limpio(ident) || limpio(ident).slice(2) === cl);
    const base = {
      ...(mismo ? dir(cliente) : {}), razon_social: dNombre, nombre_comercial: mismo ? texto(cliente!.nombre_comercial) : null, nif: ident,
      pais: mismo ? texto(cliente!.pais) : pais, tipo_id: mismo ? texto(cliente!.tipo_id) : tipoId,
    };
    destinatario = bloqueTercero(base);
    destDatos = datosParte({ ...base, ...(mismo ? publica(cliente!) : {}) });
  } else if (cliente) {
    // A simplified invoice whose record names no recipient: the customer as it was then.
    const base = {
      ...dir(cliente), razon_social: String(cliente.razon_social ?? ''), nombre_comercial: texto(cliente.nombre_comercial), nif: texto(cliente.nif),
      pais: texto(cliente.pais), tipo_id: texto(cliente.tipo_id),
    };
    destinatario = bloqueTercero(base);
    destDatos = datosParte({ ...base, nif: base.nif ?? '', ...publica(cliente) });
  }
  return { emisor, destinatario, partes: { emisor: emisorDatos, destinatario: destDatos } };
}

/**
 * A read document of a type with records and no issued data stored: reconstructed and stored once (see above).
 * Nothing for a draft (no record) nor for one that has them.
 */
export async function completarEmision(db: Kysely<Database>, doc: Documento): Promise<void> {
  if (doc.emision || !CON_REGISTRO.has(doc.tipo) || doc.estado === 'borrador') return;
  const alta = await db
    .selectFrom('registros_facturacion')
    .select(['xml', 'creado'])
    .where('documento_id', '=', doc.id)
    .where('tipo', '=', 'alta')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  if (!alta) return;
  // A fill, not a change anyone made: no activity line for whichever action read it.
  doc.emision = await fueraDeActividad(() => db.transaction().execute(async (trx) => {
    const ya = await trx
      .selectFrom('documentos')
      .select('emision')
      .where('id', '=', doc.id)
      .$if(dialectOf(db) === 'postgres', (q) => q.forUpdate())
      .executeTakeFirst();
    if (ya?.emision) return JSON.parse(ya.emision) as EmisionDocumento;
    const e = await reconstruirEmision(trx, { id: doc.id, cliente_id: doc.cliente_id }, alta);
    await trx.updateTable('documentos').set({ emision: JSON.stringify(e) }).where('id', '=', doc.id).where('emision', 'is', null).execute();
    return e;
  }));
}
