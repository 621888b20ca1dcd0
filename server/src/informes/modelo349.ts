import { NIF_IVA, calcularTotales } from 'shared/domain';
import type { TipoIva } from 'shared/domain';
import type { AppContext } from '../context.ts';
import { paginar } from './comun.ts';
import type { Fila, PaginaInforme, Respuesta } from './comun.ts';


/** '2026 3T' of a date. */
const periodoDe = (fecha: string) => `${fecha.slice(0, 4)} ${Math.floor((Number(fecha.slice(5, 7)) - 1) / 3) + 1}T`;

/** A party of another EU member state identified by its NIF-IVA (tipo_id 02): an operator the 349 declares. */
const esOperadorUe = (p: { pais?: string | null; tipo_id?: string | null }) => p.tipo_id === '02' && !!p.pais && p.pais !== 'ES' && !!NIF_IVA[p.pais];

/** The NIF-IVA with its country prefix (EL for Greece, as the AEAT's list has it). */
const nifIva = (pais: string, nif: string) => {
  const prefijo = NIF_IVA[pais]?.prefijo ?? pais;
  const n = nif.toUpperCase().replace(/[\s.-]/g, '');
  return n.startsWith(prefijo) ? n : prefijo + n;
};

/**
 * The clave of a sale line to an EU operator: E (entrega intracomunitaria de bienes: an E5 line, or an exempt line of
 * an invoice made before lines said their operation), S (prestación intracomunitaria de servicios: N2, not subject by
 * the place-of-supply rules); null: not an intra-EU operation (Spanish IVA charged).
 */
function claveVenta(l: { operacion: string | null; tipo_iva: string }): 'E' | 'S' | null {
  if (l.operacion === 'E5') return 'E';
  if (l.operacion === 'N2') return 'S';
  if (l.operacion === null && l.tipo_iva === 'exento') return 'E';
  return null;
}

type Linea = { documento_id: number; operacion?: string | null; tipo_iva: string; cantidad: number; precio: number; descuento: number };

/** Per document and clave, the base of its qualifying lines (each group rounded once, as the totals are). */
async function basesPorClave(app: AppContext, ids: number[]): Promise<Map<number, Map<'E' | 'S', number>>> {
  const out = new Map<number, Map<'E' | 'S', number>>();
  for (let i = 0; i < ids.length; i += 500) {
    const lineas: Linea[] = await app.db
      .selectFrom('documento_lineas')
      .select(['documento_id', 'operacion', 'tipo_iva', 'cantidad', 'precio', 'descuento'])
      .where('documento_id', 'in', ids.slice(i, i + 500))
      .execute();
    const grupos = new Map<string, Linea[]>();
    for (const l of lineas) {
      const c = claveVenta({ operacion: l.operacion ?? null, tipo_iva: l.tipo_iva });
      if (!c) continue;
      const k = `${l.documento_id}|${c}`;
      grupos.set(k, [...(grupos.get(k) ?? []), l]);
    }
    for (const [k, ls] of grupos) {
      const [id, c] = k.split('|');
      // The base only: these operations carry no Spanish IVA.
      const base = calcularTotales(
        ls.map((l) => ({ cantidad: Number(l.cantidad), precio: Number(l.precio), descuento: Number(l.descuento), tipo_iva: l.tipo_iva as TipoIva })),
        { iva: false },
      ).base;
      const m = out.get(Number(id)) ?? new Map<'E' | 'S', number>();
      m.set(c as 'E' | 'S', base);
      out.set(Number(id), m);
    }
  }
  return out;
}

/** The first day of a quarter '2026 3T'. */
const inicioDe = (periodo: string) => `${periodo.slice(0, 4)}-${String((Number(periodo[5]) - 1) * 3 + 1).padStart(2, '0')}-01`;
/** The day after a quarter's last: the next one's first day. */
const finDe = (periodo: string) => {
  const q = Number(periodo[5]);
  return q === 4 ? `${Number(periodo.slice(0, 4)) + 1}-01-01` : `${periodo.slice(0, 4)}-${String(q * 3 + 1).padStart(2, '0')}-01`;
};

type DocUe = { id: number; tipo: string; modo_rectificacion?: string | null; factura_id?: number | null };

/**
 * Per document and clave, its net base: its own lines', less those of the invoice it replaces for a rectificativa
 * by substitution.
 */
async function basesNetas(app: AppContext, docs: DocUe[]): Promise<Map<number, Map<'E' | 'S', number>>> {
  const sustituye = (d: DocUe) => d.tipo === 'rectificativa' && d.modo_rectificacion === 'sustitucion' && d.factura_id != null;
  const bases = await basesPorClave(app, [...docs.map((d) => d.id), ...docs.filter(sustituye).map((d) => d.factura_id!)]);
  const out = new Map<number, Map<'E' | 'S', number>>();
  for (const d of docs) {
    const propias = bases.get(d.id) ?? new Map<'E' | 'S', number>();
    const antes = sustituye(d) ? (bases.get(d.factura_id!) ?? new Map<'E' | 'S', number>()) : new Map<'E' | 'S', number>();
    out.set(d.id, new Map((['E', 'S'] as const).map((c) => [c, (propias.get(c) ?? 0) - (antes.get(c) ?? 0)])));
  }
  return out;
}

/**
 * What was declared for a customer, clave and quarter before `antesDe`: the invoices of that quarter with the
 * rectificativas of them made in it, and the corrections of that quarter declared in quarters before `antesDe`.
 */
async function declarado(app: AppContext, clienteId: number, clave: 'E' | 'S', periodo: string, antesDe: string): Promise<number> {
  const docs = await app.db
    .selectFrom('documentos as d')
    .leftJoin('documentos as o', 'o.id', 'd.factura_id')
    .select(['d.id', 'd.fecha', 'd.tipo', 'd.modo_rectificacion', 'd.factura_id', 'o.fecha as fecha_original'])
    .where('d.cliente_id', '=', clienteId)
    .where('d.tipo', 'in', ['factura', 'rectificativa'])
    .where('d.estado', '=', 'emitida')
    .where('d.fecha', '>=', inicioDe(periodo))
    .where('d.fecha', '<', antesDe)
    .execute();
  const cuentan = docs.filter((d) => {
    if (d.tipo === 'factura') return d.fecha < finDe(periodo);
    return !!d.fecha_original && periodoDe(d.fecha_original) === periodo;
  });
  const netas = await basesNetas(app, cuentan);
  return cuentan.reduce((s, d) => s + (netas.get(d.id)?.get(clave) ?? 0), 0);
}

/**
 * Modelo 349 (issue 16): the intra-EU operations of the period per operator (NIF-IVA), clave and quarter. E and S:
 * the customers of another member state with a NIF-IVA, from their issued facturas and rectificativas (E5 lines:
 * entregas de bienes; N2 lines: prestaciones de servicios; a rectificativa by substitution counts its difference with
 * the invoice it replaces), on the date of each invoice. A: the invoices of suppliers of another member state with a
 * NIF-IVA (hcp), their base (adquisiciones; the product does not tell goods from services in purchases). Bases in
 * cents, no IVA. A rectificativa of an invoice of an earlier quarter is not netted into its own: it is a
 * rectificación (`agrupar=rectificacion`): the operator, clave, the quarter it is declared in and the one corrected,
 * the base declared before (base_anterior) and the base as corrected (base_rectificada).
 */
export async function modelo349(
  app: AppContext,
  f: { desde: string; hasta: string; clave?: string | null; agrupar?: string | null },
  paging: PaginaInforme,
  flags: { ventas: boolean; compras: boolean },
): Promise<Respuesta> {
  type Acc = { clave: 'E' | 'S' | 'A'; tercero: 'cliente' | 'proveedor'; id: number; pais: string; nif: string; nombre: string; periodo: string; base: number };
  const acc = new Map<string, Acc>();
  const add = (a: Omit<Acc, 'base'>, base: number) => {
    if (!base) return;
    const k = `${a.clave}|${a.nif}|${a.periodo}`;
    const x = acc.get(k) ?? { ...a, base: 0 };
    x.base += base;
    acc.set(k, x);
  };
  // Rectificaciones (corrections of an earlier quarter): per operator, clave, quarter declared in and quarter corrected.
  type Rect = Omit<Acc, 'base' | 'periodo'> & { periodo: string; periodo_rectificado: string; delta: number };
  const rects = new Map<string, Rect>();
  if (flags.ventas && (!f.clave || f.clave === 'E' || f.clave === 'S')) {
    const docs = await app.db
      .selectFrom('documentos as d')
      .innerJoin('clientes as c', 'c.id', 'd.cliente_id')
      .leftJoin('documentos as o', 'o.id', 'd.factura_id')
      .select(['d.id', 'd.fecha', 'd.tipo', 'd.modo_rectificacion', 'd.factura_id', 'o.fecha as fecha_original', 'c.id as cliente_id', 'c.pais', 'c.tipo_id', 'c.nif', 'c.razon_social'])
      .where('d.tipo', 'in', ['factura', 'rectificativa'])
      .where('d.estado', '=', 'emitida')
      .where('d.fecha', '>=', f.desde)
      .where('d.fecha', '<=', f.hasta)
      .where('c.tipo_id', '=', '02')
      .execute();
    const ue = docs.filter((d) => esOperadorUe(d));
    const netas = await basesNetas(app, ue);
    for (const d of ue) {
      const corregido = d.tipo === 'rectificativa' && d.fecha_original ? periodoDe(d.fecha_original) : null;
      const periodo = periodoDe(d.fecha);
      for (const clave of ['E', 'S'] as const) {
        if (f.clave && f.clave !== clave) continue;
        const base = netas.get(d.id)?.get(clave) ?? 0;
        if (!base) continue;
        const quien = { clave, tercero: 'cliente' as const, id: d.cliente_id, pais: d.pais!, nif: nifIva(d.pais!, d.nif), nombre: d.razon_social };
        // A correction of an earlier quarter is declared as such, not netted into this one (the 349's «rectificaciones»).
        if (corregido && corregido < periodo) {
          const k = `${clave}|${quien.nif}|${periodo}|${corregido}`;
          const r = rects.get(k) ?? { ...quien, periodo, periodo_rectificado: corregido, delta: 0 };
          r.delta += base;
          rects.set(k, r);
        } else add({ ...quien, periodo }, base);
      }
    }
  }
  if (flags.compras && (!f.clave || f.clave === 'A')) {
    const rs = await app.db
      .selectFrom('facturas_proveedor as fp')
      .innerJoin('proveedores as p', 'p.id', 'fp.proveedor_id')
      .select(['fp.fecha', 'fp.base', 'p.id as proveedor_id', 'p.pais', 'p.tipo_id', 'p.nif', 'p.razon_social'])
      .where('fp.fecha', '>=', f.desde)
      .where('fp.fecha', '<=', f.hasta)
      .where('p.tipo_id', '=', '02')
      .execute();
    for (const r of rs) {
      if (!esOperadorUe(r)) continue;
      add({ clave: 'A', tercero: 'proveedor', id: r.proveedor_id, pais: r.pais!, nif: nifIva(r.pais!, r.nif), nombre: r.razon_social, periodo: periodoDe(r.fecha) }, Number(r.base));
    }
  }
  // Each rectificación: what had been declared for that operator, clave and quarter (its invoices and the corrections
  // made up to the quarter it is declared in), and that amount corrected.
  const rectificaciones: Fila[] = [];
  for (const r of rects.values()) {
    const anterior = await declarado(app, r.id, r.clave as 'E' | 'S', r.periodo_rectificado, inicioDe(r.periodo));
    rectificaciones.push({
      clave: `R|${r.clave}|${r.nif}|${r.periodo}|${r.periodo_rectificado}`,
      clave_operacion: r.clave,
      tercero: r.tercero,
      cliente_id: r.id,
      pais: r.pais,
      nif: r.nif,
      nombre: r.nombre,
      periodo: r.periodo,
      periodo_rectificado: r.periodo_rectificado,
      base_anterior: anterior,
      base_rectificada: anterior + r.delta,
      diferencia: r.delta,
    });
  }
  const filas: Fila[] = [...acc.values()].map((a) => ({
    clave: `${a.clave}|${a.nif}|${a.periodo}`,
    clave_operacion: a.clave,
    tercero: a.tercero,
    [a.tercero === 'proveedor' ? 'proveedor_id' : 'cliente_id']: a.id,
    pais: a.pais,
    nif: a.nif,
    nombre: a.nombre,
    periodo: a.periodo,
    base: a.base,
  }));
  const { data, total } = paginar(f.agrupar === 'rectificacion' ? rectificaciones : filas, paging, { orden: 'nombre', dir: 'asc' });
  const suma = (c: string) => filas.filter((r) => r.clave_operacion === c).reduce((s, r) => s + Number(r.base), 0);
  return {
    RESULT: '0',
    data,
    total,
    totales: {
      operadores: new Set(filas.map((r) => r.nif)).size, base: suma('E') + suma('S') + suma('A'), entregas: suma('E'), servicios: suma('S'), adquisiciones: suma('A'),
      rectificaciones: rectificaciones.length,
      base_anterior: rectificaciones.reduce((s, r) => s + Number(r.base_anterior), 0),
      base_rectificada: rectificaciones.reduce((s, r) => s + Number(r.base_rectificada), 0),
    },
  };
}
