import type { Impuesto } from './catalogo';
import { nombrePais } from './paises';

/**
 * What an issued invoice keeps of its parties (issue 16: «issued means fixed»): the issuer's and the recipient's
 * blocks as the PDF prints them (name, NIF, address lines), taken at emission by the server and printed by every
 * reprint instead of today's company and customer records.
 */

/** A party's block on a document: name, NIF and the lines under them (trade name, address, phone, e-mail). */
export type BloqueParte = {
  nombre: string;
  nif?: string | null;
  lineas?: string[];
  /** The issuer's: its tax when not IVA (issue 16: IGIC, IPSI), kept with the document at emission. */
  impuesto?: Impuesto;
};

/**
 * A party as data (Facturae, issue 16): its identifier, country and address as they were at emission, and a public
 * administration's DIR3 units.
 */
export type DatosParte = {
  nombre: string;
  nombre_comercial?: string | null;
  nif: string;
  /** ISO 3166-1 alpha-2 (null: Spain). */
  pais?: string | null;
  tipo_id?: string | null;
  direccion?: string | null;
  codigo_postal?: string | null;
  poblacion?: string | null;
  provincia?: string | null;
  telefono?: string | null;
  email?: string | null;
  administracion_publica?: 0 | 1;
  dir3_oficina_contable?: string | null;
  dir3_organo_gestor?: string | null;
  dir3_unidad_tramitadora?: string | null;
  dir3_organo_proponente?: string | null;
};

/**
 * What `documentos.emision` stores (JSON) and a read document carries as `emision`; `partes` (issue 16, Facturae):
 * both parties as data, for the invoices issued since it exists.
 */
export type EmisionDocumento = { emisor: BloqueParte; destinatario: BloqueParte | null; partes?: { emisor: DatosParte; destinatario: DatosParte | null } };

/** A party's data from its record (the fields `DatosParte` names; razón social as `nombre`). */
export function datosParte(t: Omit<DatosParte, 'nombre'> & { razon_social: string }): DatosParte {
  const { razon_social, ...resto } = t;
  return { nombre: razon_social, ...resto };
}

type Direccion = {
  direccion?: string | null;
  codigo_postal?: string | null;
  poblacion?: string | null;
  provincia?: string | null;
  telefono?: string | null;
  email?: string | null;
};

const TIPO_ID_CORTO: Record<string, string> = { '02': 'NIF-IVA', '03': 'Pasaporte', '04': 'Doc. oficial', '05': 'Cert. de residencia', '06': 'Doc.' };

const lugar = (t: Direccion) => [t.codigo_postal, t.poblacion, t.provincia ? `(${t.provincia})` : null].filter(Boolean).join(' ');
const solo = (xs: (string | null | undefined)[]) => xs.filter((x): x is string => !!x);

/** A party's block from its record (proveedor or cliente): razón social, NIF, trade name, address, phone and email. */
export function bloqueTercero(
  t: Direccion & { razon_social: string; nombre_comercial?: string | null; nif?: string | null; pais?: string | null; tipo_id?: string | null },
): BloqueParte {
  const pais = t.pais && t.pais !== 'ES' ? nombrePais(t.pais) : null;
  // Not a Spanish NIF: the identifier under its own name (NIF-IVA, pasaporte…).
  const otro = t.tipo_id && t.tipo_id !== 'NIF' ? `${TIPO_ID_CORTO[t.tipo_id] ?? 'Identificador'} ${t.nif ?? ''}` : null;
  return {
    nombre: t.razon_social,
    nif: otro ? null : (t.nif ?? null),
    lineas: solo([otro, t.nombre_comercial, t.direccion, [lugar(t), pais].filter(Boolean).join(' · '), t.telefono ? `Tel. ${t.telefono}` : null, t.email]),
  };
}

/** The company's block from its configuration (trade name on top when it has one, then razón social, NIF, address). */
export function bloqueEmpresa(c: Direccion & { razon_social: string; nombre_comercial?: string | null; nif: string; impuesto?: Impuesto | null }): BloqueParte {
  return {
    nombre: c.nombre_comercial || c.razon_social,
    nif: c.nif,
    lineas: solo([c.nombre_comercial ? c.razon_social : null, c.direccion, lugar(c), c.telefono ? `Tel. ${c.telefono}` : null, c.email]),
    ...(c.impuesto && c.impuesto !== 'iva' ? { impuesto: c.impuesto } : {}),
  };
}
