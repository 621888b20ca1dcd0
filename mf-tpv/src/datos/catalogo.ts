import type { TipoIva, UnidadMedida } from 'shared';
import { cantidadNoEntera } from 'shared/caja';
import { cantidadDeImporte, claveVariable, CONFIG_EAN_DEFECTO, leerEanVariable, type ConfigEan } from './ean';

/** What the till keeps of each article (`articulostpv`; IndexedDB and memory): enough to sell it offline. */
export type ArticuloTpv = {
  id: number;
  codigo: string;
  /** The TPV name, else the description. */
  nombre: string;
  descripcion: string;
  codigo_barras: string | null;
  /** Unit price with IVA, ten-thousandths. */
  precio: number;
  tipo_iva: TipoIva;
  unidad_medida?: UnidadMedida | string;
  familia_id?: number | null;
  kit?: number;
};

/** Lower case without accents or marks: 'Café' and 'CAFE' match. */
export function normalizar(s: string): string {
  return s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
}

/** An article and how much of it a scanned code or a typed text puts on the ticket. */
export type Lectura = {
  articulo: ArticuloTpv;
  /** Thousandths (a weighted label's grams); 1000 otherwise. */
  cantidad: number;
  /** A priced label whose amount no quantity gives at the article's price (cents): one unit at that price. */
  importe?: number;
};

/**
 * The catalogue in memory, indexed for the scanner (exact barcode, code, weighted/priced labels: Map lookups)
 * and for the search box (one pre-normalised text per article, scanned: 100.000 articles in a few ms).
 */
export class IndiceCatalogo {
  readonly articulos: ArticuloTpv[];
  private porId = new Map<number, ArticuloTpv>();
  private porBarras = new Map<string, ArticuloTpv>();
  private porCodigo = new Map<string, ArticuloTpv>();
  private porClave = new Map<string, ArticuloTpv>();
  private textos: string[];

  constructor(articulos: ArticuloTpv[], private config: ConfigEan = CONFIG_EAN_DEFECTO) {
    this.articulos = articulos;
    this.textos = new Array(articulos.length);
    articulos.forEach((a, i) => {
      this.porId.set(a.id, a);
      const barras = a.codigo_barras?.trim();
      if (barras) {
        this.porBarras.set(barras, a);
        const clave = claveVariable(barras, config);
        if (clave) this.porClave.set(clave, a);
      }
      this.porCodigo.set(normalizar(a.codigo.trim()), a);
      this.textos[i] = normalizar(`${a.codigo} ${a.nombre} ${a.descripcion} ${barras ?? ''}`);
    });
  }

  get size() {
    return this.articulos.length;
  }

  get(id: number): ArticuloTpv | undefined {
    return this.porId.get(id);
  }

  /** What a scan (or Enter on the search box) sells: exact barcode, then a weighted/priced label, then the code. */
  leer(texto: string): Lectura | null {
    const t = texto.trim();
    if (!t) return null;
    const barras = this.porBarras.get(t);
    if (barras) return { articulo: barras, cantidad: 1000 };
    const v = leerEanVariable(t, this.config);
    if (v) {
      const a = this.porClave.get(v.clave);
      if (a) {
        if (v.tipo === 'peso') return { articulo: a, cantidad: v.valor };
        // A price: the quantity at the article's price when one gives exactly that amount, else one at the label's price.
        // An article by the unit takes whole quantities (issue 23): a fraction of one is one at the label's price.
        const cantidad = cantidadDeImporte(v.valor, a.precio);
        const entera = !cantidadNoEntera(a.unidad_medida, cantidad ?? 0, a.nombre);
        return cantidad && entera ? { articulo: a, cantidad } : { articulo: a, cantidad: 1000, importe: v.valor };
      }
    }
    const codigo = this.porCodigo.get(normalizar(t));
    return codigo ? { articulo: codigo, cantidad: 1000 } : null;
  }

  /** Articles whose code, name, TPV name or barcode contain every word typed (accents and case aside). */
  buscar(texto: string, max = 40): ArticuloTpv[] {
    const palabras = normalizar(texto).split(/\s+/).filter(Boolean);
    if (!palabras.length) return [];
    const out: ArticuloTpv[] = [];
    for (let i = 0; i < this.textos.length && out.length < max; i++) {
      const s = this.textos[i];
      let ok = true;
      for (const p of palabras) {
        if (!s.includes(p)) {
          ok = false;
          break;
        }
      }
      if (ok) out.push(this.articulos[i]);
    }
    return out;
  }
}

