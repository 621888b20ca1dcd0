import type { Kysely } from 'kysely';
import { netFromPvp } from 'shared/domain';
import type { TipoIva, UnidadMedida } from 'shared/domain';
import { withDerived } from '../catalogo/derivados.ts';
import type { Database, NewStockMovimiento } from '../db/schema.ts';

/** EAN-13 of a 12-digit body: the body and its GS1 check digit. */
export function ean13(body12: string): string {
  const sum = body12
    .split('')
    .reverse()
    .reduce((s, d, i) => s + Number(d) * (i % 2 === 0 ? 3 : 1), 0);
  return body12 + ((10 - (sum % 10)) % 10);
}

const FAMILIAS = [
  { codigo: 'FER', nombre: 'Ferretería', subfamilias: [['TOR', 'Tornillería y fijación'], ['HMA', 'Herramienta manual']] },
  { codigo: 'PIN', nombre: 'Pintura', subfamilias: [['ESM', 'Esmaltes y barnices'], ['BRO', 'Brochas y rodillos']] },
  { codigo: 'ELE', nombre: 'Electricidad', subfamilias: [['ILU', 'Iluminación'], ['CAB', 'Cables y enchufes']] },
  { codigo: 'DRO', nombre: 'Droguería', subfamilias: [['LIM', 'Limpieza del hogar'], ['PAP', 'Papel y celulosa']] },
  { codigo: 'JAR', nombre: 'Jardín', subfamilias: [['RIE', 'Riego'], ['CUL', 'Cultivo']] },
] as const;

const MARCAS = [
  ['ACN', 'Aceros del Norte'],
  ['PLV', 'Pinturas Levante'],
  ['LUM', 'Luminia'],
  ['EIB', 'Eléctrica Ibérica'],
  ['LMP', 'Limpiamás'],
  ['JSU', 'Jardín del Sur'],
] as const;

/** código, descripción, subfamilia, marca, PVP in cents (IVA included), IVA, unit, keywords. */
type Demo = [string, string, string, string, number, TipoIva, UnidadMedida, string?];
const ARTICULOS: Demo[] = [
  ['TOR-M4-20', 'Tornillo hexagonal M4 x 20 inoxidable (bolsa 50)', 'TOR', 'ACN', 495, '21', 'paquete', 'tornillo inox din933'],
  ['TOR-M6-40', 'Tornillo hexagonal M6 x 40 zincado (bolsa 25)', 'TOR', 'ACN', 385, '21', 'paquete', 'tornillo zincado'],
  ['TAC-8', 'Taco de nailon 8 mm (caja 100)', 'TOR', 'ACN', 350, '21', 'caja', 'taco fijacion pared'],
  ['ARA-M8', 'Arandela plana M8 acero (bolsa 100)', 'TOR', 'ACN', 275, '21', 'paquete'],
  ['TAR-4X40', 'Tornillo para madera 4 x 40 cabeza avellanada (caja 200)', 'TOR', 'ACN', 690, '21', 'caja', 'tirafondo madera'],
  ['MAR-500', 'Martillo de carpintero 500 g mango de fibra', 'HMA', 'ACN', 1495, '21', 'ud', 'martillo'],
  ['DES-PH2', 'Destornillador Phillips PH2 x 100 mm', 'HMA', 'ACN', 425, '21', 'ud', 'destornillador estrella'],
  ['ALI-180', 'Alicate universal 180 mm', 'HMA', 'ACN', 999, '21', 'ud'],
  ['CIN-5M', 'Cinta métrica 5 m x 19 mm', 'HMA', 'ACN', 695, '21', 'ud', 'flexometro metro'],
  ['LLA-AJ8', 'Llave ajustable 8" (200 mm)', 'HMA', 'ACN', 1250, '21', 'ud', 'llave inglesa'],
  ['ESM-BL750', 'Esmalte sintético blanco brillante 750 ml', 'ESM', 'PLV', 1295, '21', 'ud', 'pintura esmalte'],
  ['ESM-NG750', 'Esmalte sintético negro satinado 750 ml', 'ESM', 'PLV', 1295, '21', 'ud', 'pintura esmalte'],
  ['BAR-NOG750', 'Barniz para madera color nogal 750 ml', 'ESM', 'PLV', 1450, '21', 'ud', 'barniz'],
  ['PLA-BL15', 'Pintura plástica blanca mate interior 15 l', 'ESM', 'PLV', 3995, '21', 'ud', 'pintura pared techo'],
  ['BRO-50', 'Brocha plana 50 mm cerda natural', 'BRO', 'PLV', 325, '21', 'ud'],
  ['ROD-22', 'Rodillo antigota 22 cm con mango', 'BRO', 'PLV', 595, '21', 'ud', 'rodillo pintar'],
  ['BOM-LED9', 'Bombilla LED E27 9 W luz cálida', 'ILU', 'LUM', 299, '21', 'ud', 'bombilla led'],
  ['BOM-LED5', 'Bombilla LED GU10 5 W luz neutra', 'ILU', 'LUM', 345, '21', 'ud', 'bombilla led dicroica'],
  ['PLA-LED18', 'Plafón LED redondo 18 W para techo', 'ILU', 'LUM', 1895, '21', 'ud', 'plafon lampara'],
  ['CAB-H07-15', 'Cable flexible H07V-K 1,5 mm² azul', 'CAB', 'EIB', 55, '21', 'm', 'cable electrico'],
  ['BAS-3T', 'Base múltiple 3 tomas con interruptor', 'CAB', 'EIB', 850, '21', 'ud', 'regleta ladron'],
  ['ENC-SCH', 'Enchufe schuko de superficie blanco', 'CAB', 'EIB', 420, '21', 'ud', 'enchufe'],
  ['LEJ-2L', 'Lejía con detergente 2 l', 'LIM', 'LMP', 165, '21', 'ud', 'lejia limpieza'],
  ['FRE-LIM', 'Friegasuelos aroma limón 1,5 l', 'LIM', 'LMP', 225, '21', 'ud', 'limpiador suelos'],
  ['LIM-BAN', 'Limpiador de baño antical 750 ml', 'LIM', 'LMP', 275, '21', 'ud', 'limpiador bano cal'],
  ['BAY-3', 'Bayeta microfibra multiusos (pack 3)', 'LIM', 'LMP', 399, '21', 'paquete', 'bayeta'],
  ['PHI-12', 'Papel higiénico doble capa (12 rollos)', 'PAP', 'LMP', 495, '21', 'paquete', 'papel wc'],
  ['MAN-15', 'Manguera de jardín 15 m 19 mm', 'RIE', 'JSU', 2295, '21', 'ud', 'manguera riego'],
  ['PIS-RIE', 'Pistola de riego 7 funciones', 'RIE', 'JSU', 895, '21', 'ud', 'pistola riego'],
  ['ABO-UNI5', 'Abono universal granulado 5 kg', 'CUL', 'JSU', 1150, '10', 'ud', 'abono fertilizante'],
  ['SEM-TOM', 'Semillas de tomate cherry (sobre)', 'CUL', 'JSU', 195, '10', 'ud', 'semillas huerto'],
  ['SUS-20L', 'Sustrato universal 20 l', 'CUL', 'JSU', 595, '21', 'ud', 'tierra sustrato'],
];

/** Long words the till's short names abbreviate (a label on a button, not the code). */
const ABREVIATURAS: Record<string, string> = {
  inoxidable: 'inox.', hexagonal: 'hex.', zincado: 'zinc.', sintético: 'sint.', brillante: 'brill.', satinado: 'sat.', universal: 'univ.',
  carpintero: 'carp.', avellanada: 'avell.', cabeza: 'cab.', madera: 'mad.', ajustable: 'ajust.', destornillador: 'destorn.', semillas: 'sem.',
};

/**
 * A readable «Nombre en el TPV» (issue 23) from an article's description, at most `max` characters (the field's 30):
 * without the packaging in brackets, long words abbreviated when it does not fit, and cut at a word if still too long.
 */
export function nombreTpv(descripcion: string, max = 30): string {
  const palabras = descripcion.replace(/\s*\([^)]*\)/g, '').split(/\s+/).filter(Boolean);
  if (palabras.join(' ').length <= max) return palabras.join(' ');
  const cortas = palabras.map((w) => ABREVIATURAS[w.toLowerCase()] ?? w);
  while (cortas.length > 1 && cortas.join(' ').length > max) cortas.pop();
  return cortas.join(' ').slice(0, max);
}

const MATERIALES = [
  ['INOX', 'Acero inoxidable'],
  ['ZINC', 'Acero zincado'],
  ['NAIL', 'Nailon'],
  ['MADE', 'Madera'],
] as const;
const PROCESOS = [
  { codigo: 'LLAVE', nombre: 'Duplicado de llave', tiempo: 5, coste: 6000 },
  { codigo: 'CORTE', nombre: 'Corte de madera a medida', tiempo: 10, coste: 25000 },
  { codigo: 'TINTE', nombre: 'Tintado de pintura a máquina', tiempo: 8, coste: 15000 },
] as const;

/** The demo shop's catalogue (first start only): a hardware and household store in Madrid. */
export async function seedCatalogo(db: Kysely<Database>, demoStock = true): Promise<void> {
  const familiaIds = new Map<string, number>();
  const subIds = new Map<string, { id: number; familia_id: number }>();
  for (const f of FAMILIAS) {
    const { id } = await db.insertInto('familias').values({ codigo: f.codigo, nombre: f.nombre, activo: 1 }).returning('id').executeTakeFirstOrThrow();
    familiaIds.set(f.codigo, id);
    for (const [codigo, nombre] of f.subfamilias) {
      const sub = await db.insertInto('subfamilias').values({ codigo, nombre, familia_id: id, activo: 1 }).returning('id').executeTakeFirstOrThrow();
      subIds.set(codigo, { id: sub.id, familia_id: id });
    }
  }
  const marcaIds = new Map<string, number>();
  for (const [codigo, nombre] of MARCAS) {
    const { id } = await db.insertInto('marcas').values({ codigo, nombre, activo: 1 }).returning('id').executeTakeFirstOrThrow();
    marcaIds.set(codigo, id);
  }
  await db.insertInto('materiales').values(MATERIALES.map(([codigo, nombre]) => ({ codigo, nombre, activo: 1 as const }))).execute();
  await db.insertInto('procesos').values(PROCESOS.map((p) => ({ ...p, activo: 1 as const }))).execute();

  const rows = ARTICULOS.map(([codigo, descripcion, sub, marca, pvp, tipo_iva, unidad_medida, palabras_clave], i) => {
    const precio_venta = Number(netFromPvp(BigInt(pvp), tipo_iva));
    return withDerived({
      codigo,
      referencia: `REF-${String(1001 + i)}`,
      descripcion,
      unidad_medida,
      familia_id: subIds.get(sub)!.familia_id,
      subfamilia_id: subIds.get(sub)!.id,
      marca_id: marcaIds.get(marca)!,
      // Bought at about 55 % of the net sale price.
      precio_compra: Number(((BigInt(precio_venta) * 55n) / 10000n) * 100n),
      precio_venta,
      tarifa_2: Number(((BigInt(precio_venta) * 90n) / 10000n) * 100n),
      tarifa_3: 0,
      tipo_iva,
      palabras_clave: palabras_clave ?? null,
      nombre_tpv: nombreTpv(descripcion),
      codigo_barras: ean13(`84123450${String(i + 1).padStart(4, '0')}`),
      activo: 1 as const,
    });
  });
  await db.insertInto('articulos').values(rows).execute();
  if (demoStock) await seedAlmacenes(db);
}

/** Demo warehouses (issue 6): a second one, locations in the principal, and opening stock so the demo shows stock. */
async function seedAlmacenes(db: Kysely<Database>): Promise<void> {
  const principal = await db.selectFrom('almacenes').select('id').where('codigo', '=', 'PRINCIPAL').executeTakeFirst();
  if (!principal) return;
  const tienda = await db
    .insertInto('almacenes')
    .values({ codigo: 'TIENDA', nombre: 'Tienda centro', direccion: 'Calle Mayor 12, Madrid', activo: 1 })
    .returning('id')
    .executeTakeFirstOrThrow();
  const ubicaciones = await db
    .insertInto('ubicaciones')
    .values([
      { almacen_id: principal.id, codigo: 'A-01-1', descripcion: 'Pasillo A, estantería 1, balda 1', activo: 1 },
      { almacen_id: principal.id, codigo: 'A-01-2', descripcion: 'Pasillo A, estantería 1, balda 2', activo: 1 },
      { almacen_id: principal.id, codigo: 'B-02-1', descripcion: 'Pasillo B, estantería 2, balda 1', activo: 1 },
    ])
    .returning('id')
    .execute();
  const articulos = await db.selectFrom('articulos').select(['id', 'codigo', 'precio_compra']).orderBy('id').limit(12).execute();
  const fecha = '2026-01-02';
  const filas = articulos.flatMap((a, i) => {
    const ubicacion_id = ubicaciones[i % ubicaciones.length].id;
    const base = { articulo_id: a.id, ubicacion: null, causa: 'inicial', documento_tipo: null, documento_id: null, fecha, precio: a.precio_compra };
    const out: NewStockMovimiento[] = [{ ...base, almacen_id: principal.id, ubicacion_id, cantidad: (6 + ((i * 7) % 20)) * 1000 }];
    if (i % 2 === 0) out.push({ ...base, almacen_id: tienda.id, ubicacion_id: null, cantidad: (2 + (i % 5)) * 1000 });
    return out;
  });
  await db.insertInto('stock_movimientos').values(filas).execute();
  await db
    .insertInto('articulo_ubicaciones')
    .values(articulos.map((a, i) => ({ articulo_id: a.id, almacen_id: principal.id, ubicacion_id: ubicaciones[i % ubicaciones.length].id })))
    .execute();
}
