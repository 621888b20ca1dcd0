import { sql } from 'kysely';
import type { RawBuilder } from 'kysely';
import { DOCUMENTO_TIPOS, IVA_RATE, numeroDocumento } from 'shared/domain';
import type { DocumentoTipo } from 'shared/domain';
import type { AppContext } from '../context.ts';
import { divR, numeros, paginar, sumar, tasaSql } from './comun.ts';
import { claveLinea, repartoSql } from './reparto.ts';
import type { Fila, PaginaInforme, Respuesta } from './comun.ts';

/**
 * Purchases: the albaranes de compra (what was received) less the devoluciones de compra, at their own stored base
 * and IVA (issue 25: the documents' desglose; by article or family shared out to the lines, reparto.ts). `facturado` is the base of the documents a supplier invoice (hcp) records,
 * `pendiente_facturar` the rest.
 */
export const AGRUPAR_COMPRAS = ['mes', 'proveedor', 'articulo', 'familia', 'almacen', 'tipo', 'documento'] as const;
export type AgruparCompras = (typeof AGRUPAR_COMPRAS)[number];
export type FiltroCompras = { desde: string; hasta: string; proveedor_id?: number | null; articulo_id?: number | null; familia_id?: number | null; almacen_id?: number | null };

/** Each grouping's key (over the document `d` and, by article or family, its line `l` and article `a`) and its label (over `clave`). */
const GRUPOS: Record<AgruparCompras, { clave: string; campo: string | null; nombre: string; linea: boolean }> = {
  mes: { clave: 'substr(d.fecha, 1, 7)', campo: null, nombre: 'clave', linea: false },
  proveedor: { clave: 'd.proveedor_id', campo: 'proveedor_id', nombre: '(select razon_social from proveedores p where p.id = clave)', linea: false },
  articulo: { clave: 'l.articulo_id', campo: 'articulo_id', nombre: "(select a.codigo || ' · ' || a.descripcion from articulos a where a.id = clave)", linea: true },
  familia: { clave: 'a.familia_id', campo: 'familia_id', nombre: '(select nombre from familias f where f.id = clave)', linea: true },
  almacen: { clave: 'd.almacen_id', campo: 'almacen_id', nombre: '(select nombre from almacenes w where w.id = clave)', linea: false },
  tipo: { clave: 'd.tipo', campo: 'tipo', nombre: 'clave', linea: false },
  documento: { clave: 'd.id', campo: 'documento_id', nombre: 'null', linea: false },
};

const IVA = tasaSql('l.tipo_iva', IVA_RATE);

export const COLUMNAS_COMPRAS = ['documentos', 'unidades', 'base', 'iva', 'total', 'facturado', 'pendiente_facturar', 'devoluciones'] as const;

/**
 * The sums of the purchases of `f` by `agrupar`. Grouped by a document's own column (month, supplier, warehouse,
 * type, document) and without an article or family filter, each document counts once with its stored base and IVA,
 * its sign and whether a supplier invoice records it: no article is read. By article or family (or filtered by them)
 * each line is grouped on its own, with its share of its document's desglose.
 */
export async function comprasAgrupadas(app: AppContext, f: FiltroCompras, agrupar: AgruparCompras): Promise<Fila[]> {
  const d = app.dialect;
  const g = GRUPOS[agrupar];
  const porLinea = g.linea || !!f.articulo_id || !!f.familia_id;
  // Document filters select the documents; an article or family filter selects lines after the documents' desglose
  // is shared out over all their lines (reparto.ts: the lines of a document add up to its stored base and IVA).
  const c: RawBuilder<unknown>[] = [sql`d.tipo in ('albarancompra', 'devolucioncompra')`, sql`d.fecha >= ${f.desde}`, sql`d.fecha <= ${f.hasta}`];
  if (f.proveedor_id) c.push(sql`d.proveedor_id = ${f.proveedor_id}`);
  if (f.almacen_id) c.push(sql`d.almacen_id = ${f.almacen_id}`);
  const cl: RawBuilder<unknown>[] = [sql`1 = 1`];
  if (f.articulo_id) cl.push(sql`x.articulo_id = ${f.articulo_id}`);
  if (f.familia_id) cl.push(sql`a.familia_id = ${f.familia_id}`);
  const signo = sql`(case when d.tipo = 'devolucioncompra' then -1 else 1 end)`;
  const facturado = sql`(case when exists (select 1 from facturas_proveedor_documentos fd where fd.documento_id = d.id) then 1 else 0 end)`;
  const { rows } = porLinea
    ? await sql<Record<string, unknown>>`
    select clave, ${sql.raw(g.nombre)} as nombre, documentos, unidades, base, iva, facturado, devoluciones, ultimo
    from (select clave, count(distinct documento_id) as documentos, sum(s * cantidad) as unidades, sum(s * base) as base, sum(s * iva) as iva,
        sum(case when facturado = 1 then s * base else 0 end) as facturado, sum(case when tipo = 'devolucioncompra' then s * base else 0 end) as devoluciones, max(ultimo) as ultimo
      from (select ${sql.raw(g.clave.replace(/\bl\./g, 'x.'))} as clave, d.id as documento_id, d.tipo, ${signo} as s, ${facturado} as facturado, x.cantidad, x.base, x.iva,
          (case when d.tipo = 'albarancompra' then d.fecha || '|' || cast((1000000000000 + x.linea_id) as text) || '|' || cast((x.precio * (10000 - x.descuento) / 10000) as text) else null end) as ultimo
        from (${repartoSql(
          d,
          sql`select l.documento_id, l.articulo_id, l.cantidad, l.precio, l.descuento, l.id as linea_id, d.id as grupo, d.id as fuente_id, ${claveLinea('l', 'd')} as clave,
              l.cantidad * l.precio * (10000 - l.descuento) as peso, ${IVA} as tasa_iva, 0 as tasa_recargo
            from documentos d join documento_lineas l on l.documento_id = d.id where ${sql.join(c, sql` and `)}`,
          ['documento_id', 'articulo_id', 'cantidad', 'precio', 'descuento', 'linea_id'],
        )}) x join documentos d on d.id = x.documento_id ${agrupar === 'familia' || f.familia_id ? sql`join articulos a on a.id = x.articulo_id` : sql``}
        where ${sql.join(cl, sql` and `)}) y
      group by clave) z`.execute(app.db)
    : await sql<Record<string, unknown>>`
    select clave, ${sql.raw(g.nombre)} as nombre, documentos, unidades, base, iva, facturado, devoluciones
    from (select clave, count(*) as documentos, sum(unidades) as unidades, sum(base) as base, sum(iva) as iva,
        sum(case when facturado = 1 then base else 0 end) as facturado, sum(case when tipo = 'devolucioncompra' then base else 0 end) as devoluciones
      from (select ${sql.raw(g.clave)} as clave, d.tipo, ${signo} * (select coalesce(sum(l.cantidad), 0) from documento_lineas l where l.documento_id = d.id) as unidades,
          ${signo} * d.base as base, ${signo} * d.iva as iva, ${facturado} as facturado
        from documentos d where ${sql.join(c, sql` and `)}) z
      group by clave) y`.execute(app.db);
  const filas = rows.map((r) => {
    const n = numeros(r, ['clave', 'nombre', 'ultimo']);
    const fila: Fila = { clave: n.clave === null ? null : String(n.clave), nombre: n.nombre ?? null };
    if (g.campo) fila[g.campo] = g.campo === 'tipo' ? (n.clave as string) : n.clave === null ? null : Number(n.clave);
    for (const col of COLUMNAS_COMPRAS) if (col in n) fila[col] = Number(n[col] ?? 0);
    fila.total = Number(fila.base) + Number(fila.iva);
    fila.pendiente_facturar = Number(fila.base) - Number(fila.facturado);
    if (agrupar === 'articulo') {
      // Average net price paid (ten-thousandths) and the last one (the latest receipt's line).
      const u = Number(fila.unidades);
      fila.precio_medio = u > 0 ? Math.round((Number(fila.base) * 100 * 1000) / u) : null;
      fila.ultimo_precio = typeof n.ultimo === 'string' ? Number(n.ultimo.split('|')[2]) : null;
    }
    return fila;
  });
  if (agrupar === 'tipo') for (const r of filas) r.nombre = DOCUMENTO_TIPOS[r.clave as DocumentoTipo]?.pluralLabel ?? String(r.clave);
  if (agrupar === 'documento') {
    const ids = filas.map((r) => Number(r.clave));
    const docs = new Map<number, Fila>();
    for (let i = 0; i < ids.length; i += 500) {
      const rs = await app.db
        .selectFrom('documentos as d')
        .leftJoin('proveedores as p', 'p.id', 'd.proveedor_id')
        .select(['d.id', 'd.tipo', 'd.fecha', 'd.numero', 'd.ejercicio', 'd.estado', 'p.razon_social'])
        .where('d.id', 'in', ids.slice(i, i + 500))
        .execute();
      for (const r of rs) {
        const numero = numeroDocumento(DOCUMENTO_TIPOS[r.tipo as DocumentoTipo]?.prefijo ?? '', Number(r.ejercicio), r.numero);
        docs.set(r.id, { tipo: r.tipo, fecha: r.fecha, numero, estado: r.estado, nombre: `${numero}${r.razon_social ? ` · ${r.razon_social}` : ''}` });
      }
    }
    for (const r of filas) Object.assign(r, docs.get(Number(r.clave)) ?? {});
  }
  return filas;
}

export async function informeCompras(app: AppContext, f: FiltroCompras, agrupar: AgruparCompras, paging: PaginaInforme): Promise<Respuesta> {
  const filas = await comprasAgrupadas(app, f, agrupar);
  const totales: Record<string, number | null> = sumar(filas, COLUMNAS_COMPRAS);
  if (agrupar === 'articulo' || agrupar === 'familia') totales.documentos = null;
  const porDefecto = agrupar === 'mes' ? { orden: 'clave', dir: 'asc' as const } : { orden: 'base', dir: 'desc' as const };
  const { data, total } = paginar(filas, paging, porDefecto);
  return { RESULT: '0', data, total, totales };
}

/** Suppliers: purchases (as informecompras), supplier invoices recorded, what is ordered and not yet received. */
export async function informeProveedores(app: AppContext, f: FiltroCompras & { agrupar: 'proveedor' | 'mes' | 'anio' }, paging: PaginaInforme): Promise<Respuesta> {
  if (f.agrupar !== 'proveedor') {
    const filas = await comprasAgrupadas(app, f, 'mes');
    const grupos = new Map<string, Fila>();
    for (const r of filas) {
      const k = f.agrupar === 'anio' ? String(r.clave).slice(0, 4) : String(r.clave);
      const acc = grupos.get(k) ?? { clave: k, nombre: k };
      for (const c of COLUMNAS_COMPRAS) acc[c] = Number(acc[c] ?? 0) + Number(r[c] ?? 0);
      grupos.set(k, acc);
    }
    const agregadas = [...grupos.values()];
    const { data, total } = paginar(agregadas, paging, { orden: 'clave', dir: 'asc' });
    return { RESULT: '0', data, total, totales: sumar(agregadas, COLUMNAS_COMPRAS) };
  }
  const compras = await comprasAgrupadas(app, f, 'proveedor');
  const por = new Map<number, Fila>();
  const fila = (id: number): Fila => {
    let r = por.get(id);
    if (!r) {
      r = { clave: String(id), proveedor_id: id, nombre: null, documentos: 0, base: 0, total: 0, devoluciones: 0, pendiente_facturar: 0, facturas: 0, facturado: 0, pendiente_recibir: 0 };
      por.set(id, r);
    }
    return r;
  };
  for (const c of compras) {
    if (c.proveedor_id === null) continue;
    Object.assign(fila(Number(c.proveedor_id)), { documentos: c.documentos, base: c.base, total: c.total, devoluciones: c.devoluciones, pendiente_facturar: c.pendiente_facturar });
  }
  const filtro = f.proveedor_id ? sql`and proveedor_id = ${f.proveedor_id}` : sql``;
  const facturas = await sql<{ proveedor_id: number; n: number | string; total: number | string }>`
    select proveedor_id, count(*) as n, sum(total) as total from facturas_proveedor where fecha >= ${f.desde} and fecha <= ${f.hasta} ${filtro}
    group by proveedor_id`.execute(app.db);
  for (const r of facturas.rows) Object.assign(fila(r.proveedor_id), { facturas: Number(r.n), facturado: Number(r.total) });
  // The open orders by their state's index: SQLite would rather walk every order by supplier to spare the GROUP BY's sort
  // (9.000 orders read for the 2.000 open ones: 100 ms → 30 ms at the million-line bench).
  const porEstado = app.dialect === 'sqlite' ? sql`indexed by documentos_tipo_estado` : sql``;
  const pedidos = await sql<{ proveedor_id: number; importe: number | string }>`
    select d.proveedor_id, sum(${divR(app.dialect, sql`l.pendiente * l.precio * (10000 - l.descuento)`, sql`1000000000`)}) as importe
    from documentos d ${porEstado} join documento_lineas l on l.documento_id = d.id
    where d.tipo = 'pedidocompra' and d.estado in ('creado', 'enviado', 'recibido_parcial') and l.pendiente > 0 and d.fecha <= ${f.hasta} ${f.proveedor_id ? sql`and d.proveedor_id = ${f.proveedor_id}` : sql``}
    group by d.proveedor_id`.execute(app.db);
  for (const r of pedidos.rows) fila(r.proveedor_id).pendiente_recibir = Number(r.importe);
  const ids = [...por.keys()];
  for (let i = 0; i < ids.length; i += 500) {
    const rs = await app.db.selectFrom('proveedores').select(['id', 'razon_social', 'nif', 'provincia']).where('id', 'in', ids.slice(i, i + 500)).execute();
    for (const p of rs) Object.assign(por.get(p.id)!, { nombre: p.razon_social, nif: p.nif, provincia: p.provincia });
  }
  const filas = [...por.values()];
  const { data, total } = paginar(filas, paging, { orden: 'base', dir: 'desc' });
  return { RESULT: '0', data, total, totales: sumar(filas, ['documentos', 'base', 'total', 'devoluciones', 'pendiente_facturar', 'facturas', 'facturado', 'pendiente_recibir']) };
}
