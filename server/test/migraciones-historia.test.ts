import fs from 'node:fs';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../src/db/index.ts';
import type { Db } from '../src/db/index.ts';
import { STEPS, migrate } from '../src/db/migrations/index.ts';
import { backends, freshDatabase } from './helpers.ts';
import { datos, esquema } from './migraciones-foto.ts';

// biome-ignore lint/suspicious/noExplicitAny: the migrations run on an untyped database, as the migrator does.
type AnyDb = Kysely<any>;

/**
 * A migration is history (docs/produccion.md, «A migration is history»): it does tomorrow exactly what it did the day it shipped,
 * whatever today's code says. Here today's code says something else — one more module flag, another IVA rate, one
 * more valued cause of the ledger, another rounding — and the migrations must not notice: the schema of a new
 * database and the data of an upgraded one are the snapshots taken from the code as it was when the migrations were
 * frozen (test/migraciones-historia/, written with MIGRACIONES_FOTO=escribir and the real code, never to make this
 * test pass).
 */
const ESCRIBIR = process.env.MIGRACIONES_FOTO === 'escribir';

vi.mock('shared/domain', async (original) => {
  const m = await original<typeof import('shared/domain')>();
  if (process.env.MIGRACIONES_FOTO === 'escribir') return m;
  return {
    ...m,
    CONF_FIELDS: [...m.CONF_FIELDS, 'conf_modulo_de_manana'],
    IVA_RATE: { ...m.IVA_RATE, '21': 2300n, '10': 1100n },
    RECARGO_RATE: { ...m.RECARGO_RATE, '21': 600n },
    divRound: (a: bigint, b: bigint) => a / b,
  };
});
vi.mock('../src/documentos/coste.ts', async (original) => {
  const m = await original<typeof import('../src/documentos/coste.ts')>();
  if (process.env.MIGRACIONES_FOTO === 'escribir') return m;
  return { ...m, CAUSAS_VALORADAS: [...m.CAUSAS_VALORADAS, 'devolucion_venta'], CAUSAS_COSTE_VENTA: ['venta'] };
});

const CARPETA = path.join(import.meta.dirname, 'migraciones-historia');
/** The steps there were when the snapshots were taken (a later migration is not history yet: it is not compared). */
const PASOS: string[] = JSON.parse(fs.readFileSync(path.join(CARPETA, 'pasos.json'), 'utf8'));
const PASOS_FOTO = () => STEPS.filter(([n]) => PASOS.includes(n));
/**
 * The upgrades compared: a database made by the steps up to `punto`, with data (`rellenar`: the columns it writes
 * exist from 0009 on), migrated to the last step; its rows are the snapshot `foto` (subida-<foto>.<dialect>.json), taken
 * from an upgrade from that same point with HEAD's code. From before 0013 HEAD's code failed (0013 called today's cost
 * replay, which writes 0015's columns: "no such column: coste"); frozen, such a database ends with the rows an upgrade
 * from 0014 gives.
 */
const PUNTOS: { punto: string; foto: string }[] = [
  { punto: '0009_roles', foto: '0014_tpv' },
  { punto: '0012_demo', foto: '0014_tpv' },
  { punto: '0013_coste_medio', foto: '0013_coste_medio' },
  { punto: '0014_tpv', foto: '0014_tpv' },
  { punto: '0015_informes', foto: '0015_informes' },
  { punto: '0018_facturas_fijas', foto: '0018_facturas_fijas' },
  { punto: '0024_impuesto_empresa', foto: '0024_impuesto_empresa' },
  { punto: '0041_tpv_factura_vales', foto: '0041_tpv_factura_vales' },
];

const leer = (nombre: string) => JSON.parse(fs.readFileSync(path.join(CARPETA, nombre), 'utf8')) as string[];
function foto(nombre: string, valor: string[], escribir = ESCRIBIR) {
  if (escribir) fs.writeFileSync(path.join(CARPETA, nombre), `${JSON.stringify(valor, null, 1)}\n`);
  return leer(nombre);
}

/** A database from before cobros in parts in use: a company, a user, customers, a supplier, articles, purchases, invoices (one paid, one in instalments, one rectified), a draft, an albarán. */
async function rellenar(db: AnyDb) {
  const id = async (tabla: string, valores: Record<string, unknown>) =>
    Number((await db.insertInto(tabla).values(valores).returning('id').executeTakeFirstOrThrow()).id);
  const creado = '2026-03-01T09:00:00.000Z';
  await id('configuracion', { razon_social: 'Ferretería Guanche SL', nif: 'B12345674', conf_ventas: 1, conf_compras: 1 });
  const rol = Number((await db.selectFrom('roles').select('id').where('clave', '=', 'administrador').executeTakeFirstOrThrow()).id);
  const usuario = await id('usuarios', { nombre: 'Ana', email: 'ana@example.es', password_hash: 'x', creado, rol_id: rol });
  const serieF = await id('series', { codigo: 'F', descripcion: 'Facturas', tipo: 'normal' });
  const serieR = await id('series', { codigo: 'R', descripcion: 'Rectificativas', tipo: 'rectificativa' });
  const almacen = Number((await db.selectFrom('almacenes').select('id').orderBy('id').executeTakeFirstOrThrow()).id);
  const cliente = await id('clientes', { codigo: 'C1', nif: 'B76543210', razon_social: 'Obras Teide SL' });
  const proveedor = await id('proveedores', { codigo: 'P1', nif: 'A11111111', razon_social: 'Suministros Atlántico SA' });
  const art = (codigo: string, tipo_iva: string, precio_compra: number) =>
    id('articulos', { codigo, descripcion: codigo, busqueda: codigo.toLowerCase(), tipo_iva, precio_compra, precio_venta: 125000 });
  const A = await art('TOR-1', '21', 40000);
  const B = await art('ARA-2', '10', 90000);
  const C = await art('CLA-3', '21', 0);
  let orden = 0;
  const doc = (valores: Record<string, unknown>) =>
    id('documentos', { ejercicio: 2026, almacen_id: almacen, creado, creado_por: usuario, estado: 'pendiente', ...valores });
  const linea = (documento_id: number, articulo_id: number, cantidad: number, precio: number, tipo_iva = '21', descuento = 0) =>
    id('documento_lineas', { documento_id, orden: ++orden, articulo_id, codigo: 'X', descripcion: 'Línea', tipo_iva, cantidad, precio, descuento });
  const mov = (articulo_id: number, cantidad: number, causa: string, fecha: string, precio = 0, documento_id: number | null = null, documento_linea_id: number | null = null) =>
    id('stock_movimientos', { articulo_id, almacen_id: almacen, cantidad, causa, fecha, precio, documento_id, documento_linea_id, documento_tipo: null });

  // Opening stock, then purchases — one dated before rows already written (a back-dated delivery note).
  await mov(B, 10_000, 'inicial', '2026-01-05', 95_000);
  const compra = await doc({ tipo: 'albarancompra', fecha: '2026-03-01', proveedor_id: proveedor, total: 60500, base: 50000, iva: 10500 });
  await mov(A, 10_000, 'compra', '2026-03-01', 50_006, compra, await linea(compra, A, 10_000, 50_006));
  await mov(C, 3_000, 'ajuste', '2026-03-02', 33_333);
  const atrasada = await doc({ tipo: 'albarancompra', fecha: '2026-02-15', proveedor_id: proveedor, total: 48400, base: 40000, iva: 8400 });
  await mov(A, 5_000, 'compra', '2026-02-15', 80_000, atrasada, await linea(atrasada, A, 5_000, 80_000));

  // F1: paid at the counter on the day (one cobro, its date and form).
  const desglose = (tipo_iva: string, base: number, iva: number) => JSON.stringify([{ tipo_iva, base, iva, recargo: 0 }]);
  const f1 = await doc({ tipo: 'factura', serie_id: serieF, numero: 1, fecha: '2026-03-10', estado: 'emitida', cliente_id: cliente, forma_pago: 'contado', total: 3025, base: 2500, iva: 525, desglose: desglose('21', 2500, 525), cobro_fecha: '2026-03-10', cobro_forma: 'efectivo', modificado: '2026-03-10T10:00:00.000Z', modificado_por: usuario });
  await mov(A, -2_000, 'factura', '2026-03-10', 0, f1, await linea(f1, A, 2_000, 125_000));
  // F2: three units of B and one of C with a discount, in two instalments, unpaid; R1 takes one unit of B back by differences.
  const f2 = await doc({ tipo: 'factura', serie_id: serieF, numero: 2, fecha: '2026-03-12', estado: 'emitida', cliente_id: cliente, forma_pago: 'recibo_30_60', total: 48513, base: 42917, iva: 5596, desglose: JSON.stringify([{ tipo_iva: '10', base: 33750, iva: 3375, recargo: 0 }, { tipo_iva: '21', base: 9167, iva: 1925, recargo: 0 }]) });
  await mov(B, -3_000, 'factura', '2026-03-12', 0, f2, await linea(f2, B, 3_000, 112_500, '10'));
  await mov(C, -1_000, 'factura', '2026-03-12', 0, f2, await linea(f2, C, 1_000, 99_999, '21', 833));
  const r1 = await doc({ tipo: 'rectificativa', serie_id: serieR, numero: 1, fecha: '2026-03-20', estado: 'emitida', cliente_id: cliente, factura_id: f2, modo_rectificacion: 'diferencias', forma_pago: 'recibo_30_60', total: -12375, base: -11250, iva: -1125, desglose: desglose('10', -11250, -1125) });
  await mov(B, 1_000, 'rectificativa', '2026-03-20', 0, r1, await linea(r1, B, -1_000, 112_500, '10'));
  // A draft invoice (no sale, no account yet) and a pending albarán of sale.
  const borrador = await doc({ tipo: 'factura', fecha: '2026-03-25', estado: 'borrador', cliente_id: cliente, total: 1513, base: 1250, iva: 263 });
  await linea(borrador, A, 1_000, 12_500);
  const albaran = await doc({ tipo: 'albaranventa', fecha: '2026-03-15', cliente_id: cliente, total: 1513, base: 1250, iva: 263, desglose: desglose('21', 1250, 263) });
  await mov(A, -1_000, 'venta', '2026-03-15', 0, albaran, await linea(albaran, A, 1_000, 12_500));
  // A sale dated before the back-dated purchase's day the ledger already had; stored before desgloses (no desglose: its IVA from the rate).
  const ticket = await doc({ tipo: 'factura', serie_id: serieF, numero: 3, fecha: '2026-02-20', estado: 'emitida', cliente_id: cliente, forma_pago: 'transferencia_30', total: 1513, base: 1250, iva: 263, cobro_fecha: '2026-03-01', cobro_forma: 'transferencia' });
  await mov(A, -1_000, 'factura', '2026-02-20', 0, ticket, await linea(ticket, A, 1_000, 12_500));
}

describe('migrations import nothing live', () => {
  const raiz = path.join(import.meta.dirname, '../src/db/migrations');
  const archivos = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? archivos(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));

  it('every file under db/migrations imports only kysely, node: and other files under db/migrations (and the dialect type)', () => {
    const malos: string[] = [];
    const todos = archivos(raiz);
    expect(todos.length).toBeGreaterThan(40);
    for (const f of todos) {
      const texto = fs.readFileSync(f, 'utf8');
      // Every static import or re-export (one line or several), every dynamic import() and require().
      const especificadores = [
        ...[...texto.matchAll(/^\s*(import|export)\s+(type\s+)?[^;'"]*?\bfrom\s+['"]([^'"]+)['"]/gms)].map((m) => ({ tipo: !!m[2], de: m[3]! })),
        ...[...texto.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm)].map((m) => ({ tipo: false, de: m[1]! })),
        ...[...texto.matchAll(/\b(?:import|require)\s*\(\s*['"`]([^'"`]+)['"`]/g)].map((m) => ({ tipo: false, de: m[1]! })),
      ];
      for (const { tipo, de } of especificadores) {
        if (de === 'kysely' || de.startsWith('node:')) continue;
        if (de.startsWith('.')) {
          const destino = path.resolve(path.dirname(f), de);
          if (destino === raiz || destino.startsWith(`${raiz}${path.sep}`)) continue;
          // The dialect's name, a type: erased at run time.
          if (tipo && destino === path.resolve(raiz, '../index.ts')) continue;
        }
        malos.push(`${path.relative(raiz, f)} → ${de}`);
      }
    }
    expect(malos).toEqual([]);
  });

  it('the check sees an import of live code (the regular expressions match what the files write)', () => {
    const prueba = `import { sql } from 'kysely';\nimport {\n  CONF_FIELDS,\n  IVA_RATE,\n} from 'shared/domain';\nimport type { DialectName } from '../index.ts';\n`;
    const des = [...prueba.matchAll(/^\s*(import|export)\s+(type\s+)?[^;'"]*?\bfrom\s+['"]([^'"]+)['"]/gms)].map((m) => m[3]);
    expect(des).toEqual(['kysely', 'shared/domain', '../index.ts']);
  });
});

describe.each(backends())('migrations are history ($name)', (backend) => {
  let cerrar: (() => Promise<void>) | undefined;
  afterEach(async () => {
    vi.useRealTimers();
    await cerrar?.();
    cerrar = undefined;
  });

  async function abrir(): Promise<Db> {
    const fresh = await freshDatabase(backend);
    const database = openDatabase({ dataDir: fresh.dataDir, databaseUrl: fresh.databaseUrl });
    cerrar = async () => {
      await database.close();
      await fresh.drop();
    };
    return database;
  }

  it('a new database has the schema it had when the migrations were frozen, whatever the flags and rates are today', async () => {
    const database = await abrir();
    await migrate(database.db, database.dialect, { steps: PASOS_FOTO() });
    const hoy = await esquema(database.db as AnyDb, database.dialect);
    const antes = foto(`esquema.${backend.name}.json`, hoy);
    // Today's extra flag made no column; the frozen ones are all there.
    expect(hoy.join('\n')).not.toContain('conf_modulo_de_manana');
    expect(hoy.join('\n')).toContain('conf_ventas_facturas');
    expect(hoy).toEqual(antes);
  });

  it.each(PUNTOS)('an upgrade from $punto with sales, purchases and cobros ends with the schema and the rows it had when the migrations were frozen', async ({ punto, foto: nombre }) => {
    // 0009 stamps the built-in roles with the clock.
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-04-01T08:00:00.000Z') });
    const database = await abrir();
    const i = STEPS.findIndex(([n]) => n === punto);
    expect(i).toBeGreaterThan(0);
    await migrate(database.db, database.dialect, { steps: STEPS.slice(0, i + 1) });
    await rellenar(database.db as AnyDb);
    await migrate(database.db, database.dialect, { steps: PASOS_FOTO() });
    const filas = await datos(database.db as AnyDb, database.dialect);
    const antes = foto(`subida-${nombre}.${backend.name}.json`, filas, ESCRIBIR && nombre === punto);
    // What the data steps computed is there: the cobros (0016: the invoices paid before it), each row's average cost
    // (0015, 0047), the aggregates (0019, 0046, 0028).
    expect(filas.filter((f) => f.startsWith('cobros|'))).toHaveLength(punto < '0016' ? 2 : 0);
    expect(filas.some((f) => f.startsWith('informe_ventas_articulo_mes|'))).toBe(true);
    expect(filas.filter((f) => f.startsWith('stock_movimientos|') && !f.includes('|coste=∅|')).length).toBeGreaterThan(5);
    expect(filas).toEqual(antes);
    // The schema of an upgraded database is a new one's.
    expect(await esquema(database.db as AnyDb, database.dialect)).toEqual(leer(`esquema.${backend.name}.json`));
  });
});
