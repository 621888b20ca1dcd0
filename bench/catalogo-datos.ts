// The bench catalogue: a hardware and household store's 100.000 articles from word lists, reproducible (seeded
// PRNG), shared by `pnpm bench:catalogo` (catalogo.ts) and `pnpm bench:sugerencias` (sugerencias.ts).
import type { Kysely } from 'kysely';
import type { TipoIva } from 'shared/domain';
import { derivedColumns, withPvp } from '../server/src/catalogo/derivados.ts';
import { ean13 } from '../server/src/demo/seed-catalogo.ts';
import type { Database } from '../server/src/db/schema.ts';

import { rand, semilla } from './datos.ts';

// The demo generator's seeded PRNG (server/src/demo/datos.ts through ./datos.ts): the same sequence as before.
export { rand };
export const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];

const FAMILIAS: { codigo: string; nombre: string; tipos: string[] }[] = [
  { codigo: 'FER', nombre: 'Ferretería', tipos: ['Tornillo', 'Tuerca', 'Arandela', 'Taco', 'Clavo', 'Bisagra', 'Cerradura', 'Candado', 'Tirador', 'Escuadra', 'Cadena', 'Gancho'] },
  { codigo: 'HER', nombre: 'Herramientas', tipos: ['Destornillador', 'Martillo', 'Alicate', 'Sierra', 'Serrucho', 'Cúter', 'Llave', 'Broca', 'Disco', 'Lima', 'Nivel', 'Metro'] },
  { codigo: 'PIN', nombre: 'Pintura', tipos: ['Pintura', 'Esmalte', 'Barniz', 'Imprimación', 'Masilla', 'Brocha', 'Rodillo', 'Cinta', 'Lija', 'Disolvente'] },
  { codigo: 'ELE', nombre: 'Electricidad', tipos: ['Cable', 'Enchufe', 'Interruptor', 'Bombilla', 'Regleta', 'Foco', 'Linterna', 'Pila', 'Plafón', 'Aplique'] },
  { codigo: 'FON', nombre: 'Fontanería', tipos: ['Grifo', 'Tubo', 'Codo', 'Racor', 'Válvula', 'Latiguillo', 'Sifón', 'Manguito', 'Teflón'] },
  { codigo: 'DRO', nombre: 'Droguería', tipos: ['Detergente', 'Lejía', 'Limpiador', 'Ambientador', 'Bayeta', 'Estropajo', 'Fregona', 'Escoba', 'Cubo'] },
  { codigo: 'JAR', nombre: 'Jardín', tipos: ['Manguera', 'Maceta', 'Tijera', 'Azada', 'Rastrillo', 'Abono', 'Sustrato', 'Semilla', 'Aspersor'] },
  { codigo: 'SEG', nombre: 'Seguridad laboral', tipos: ['Guante', 'Gafas', 'Mascarilla', 'Casco', 'Bota', 'Chaleco', 'Tapón'] },
  { codigo: 'MEN', nombre: 'Menaje', tipos: ['Sartén', 'Cazo', 'Olla', 'Cuchillo', 'Tabla', 'Vaso', 'Taza', 'Plato', 'Jarra', 'Termo'] },
  { codigo: 'BAN', nombre: 'Baño', tipos: ['Toallero', 'Espejo', 'Portarrollos', 'Cortina', 'Alfombrilla', 'Jabonera'] },
];
export const ATRIBUTOS = ['profesional', 'universal', 'flexible', 'ajustable', 'plegable', 'regulable', 'lavable', 'recargable', 'reutilizable', 'impermeable', 'portátil', 'multiusos', 'para exterior', 'para interior', 'con mango', 'de seguridad', 'antideslizante', 'extra', 'mini', 'premium'];
export const MATERIALES = ['de acero', 'de acero inoxidable', 'de latón', 'de aluminio', 'de nailon', 'de madera', 'de PVC', 'de cerámica', 'de algodón', 'de goma', 'blanco', 'negro', 'gris', 'rojo', 'azul', 'verde', 'cromado', 'dorado', 'transparente', 'zincado'];
const MEDIDAS = ['M3 x 10', 'M4 x 20', 'M6 x 40', 'M8 x 60', '8 mm', '10 mm', '12 mm', '1/2"', '3/4"', '5 m', '10 m', '25 m', '750 ml', '1 l', '4 l', '15 l', '500 g', '1 kg', '5 kg', '9 W', '12 W', '60 cm', '1,5 mm²', 'talla M', 'talla L', '20 cm', '28 cm', 'pack 3', 'pack 10', 'caja 100'];
const SILABAS = ['ro', 'ma', 'tec', 'sur', 'nor', 'lux', 'fer', 'vi', 'la', 'tor', 'mon', 'pro', 'ca', 'bel', 'zen', 'dur'];
const IVAS: TipoIva[] = [...Array(85).fill('21'), ...Array(10).fill('10'), ...Array(4).fill('4'), 'exento'];
const UNIDADES = ['ud', 'ud', 'ud', 'ud', 'caja', 'paquete', 'm', 'kg', 'l'] as const;

export type Generated = { barcodes: string[]; words: { selective: string; broad: string; fragment: string; broadFragment: string } };

/** `n` articles with their familias (one subfamilia per kind of product) and marcas, in one transaction. */
export async function generate(db: Kysely<Database>, N: number): Promise<Generated> {
  semilla(20260101);
  return db.transaction().execute(async (trx) => {
    const subs: { id: number; familia_id: number; tipo: string }[] = [];
    for (const f of FAMILIAS) {
      const fam = await trx.insertInto('familias').values({ codigo: `B${f.codigo}`, nombre: f.nombre, activo: 1 }).returning('id').executeTakeFirstOrThrow();
      for (const tipo of f.tipos) {
        const codigo = `B${f.codigo}-${tipo.normalize('NFD').replace(/\p{M}/gu, '').slice(0, 5).toUpperCase()}`;
        const s = await trx.insertInto('subfamilias').values({ codigo, nombre: `${tipo}s`, familia_id: fam.id, activo: 1 }).returning('id').executeTakeFirstOrThrow();
        subs.push({ id: s.id, familia_id: fam.id, tipo });
      }
    }
    const marcas: number[] = [];
    for (let i = 0; i < 40; i++) {
      const nombre = pick(SILABAS) + pick(SILABAS) + pick(SILABAS);
      const m = await trx.insertInto('marcas').values({ codigo: `BM${String(i).padStart(3, '0')}`, nombre: nombre[0].toUpperCase() + nombre.slice(1), activo: 1 }).returning('id').executeTakeFirstOrThrow();
      marcas.push(m.id);
    }
    const barcodes: string[] = [];
    let batch: Record<string, unknown>[] = [];
    for (let i = 1; i <= N; i++) {
      const sub = pick(subs);
      const descripcion = `${sub.tipo} ${pick(ATRIBUTOS)} ${pick(MATERIALES)} ${pick(MEDIDAS)}`;
      const precio_venta = Math.floor(50 + rand() * rand() * 50_000) * 100;
      const codigo_barras = rand() < 0.9 ? ean13(`84${String(i).padStart(10, '0')}`) : null;
      if (codigo_barras) barcodes.push(codigo_barras);
      const base = withPvp({
        codigo: `${descripcion.slice(0, 3).toUpperCase()}${String(i).padStart(6, '0')}`,
        referencia: rand() < 0.8 ? `REF-${Math.floor(rand() * 100000)}-${pick(['A', 'B', 'C', 'X'])}` : null,
        descripcion,
        unidad_medida: pick(UNIDADES),
        familia_id: sub.familia_id,
        subfamilia_id: sub.id,
        marca_id: pick(marcas),
        precio_compra: Math.floor((precio_venta * (0.5 + rand() * 0.2)) / 100) * 100,
        precio_venta,
        tarifa_2: Math.floor((precio_venta * 0.95) / 100) * 100,
        tarifa_3: 0,
        tipo_iva: pick(IVAS),
        palabras_clave: rand() < 0.3 ? `${sub.tipo.toLowerCase()} ${pick(MATERIALES)}` : null,
        nombre_tpv: null,
        codigo_barras,
        activo: rand() < 0.95 ? 1 : 0,
      });
      batch.push({ ...base, ...derivedColumns(base) });
      if (batch.length === 500 || i === N) {
        await trx.insertInto('articulos').values(batch as never).execute();
        batch = [];
      }
    }
    return { barcodes, words: { selective: 'bisagra latón', broad: 'para exterior', fragment: 'nillo', broadFragment: 'able' } };
  });
}

