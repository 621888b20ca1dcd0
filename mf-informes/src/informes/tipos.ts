import type { FlagName, MenuArea } from 'shared';

/** How a cell is shown: amounts arrive as scaled integers, like the documents' (shared/domain/decimal.ts). */
export type Formato =
  | 'texto'
  | 'fecha'
  | 'mes'
  /** Cents. */
  | 'dinero'
  /** Thousandths. */
  | 'cantidad'
  /** Ten-thousandths of a euro (a unit cost or price). */
  | 'precio'
  /** Hundredths of a percent (2100 = 21 %). */
  | 'porcentaje'
  | 'entero'
  /** A year: a number without thousands separator (2026). */
  | 'anio'
  /** Hundredths of a ratio shown without a unit (a rotation of 2,35). */
  | 'razon'
  | 'verifactu'
  /** A ledger row's cause (compra, venta, traspaso...). */
  | 'causa';

/** A row of a report's answer: the server's fields (amounts as integers or their decimal text). */
export type Fila = Record<string, unknown>;

export type Columna = {
  /** The field of the row (and of `totales`); also the `orden` sent when sorting. */
  id: string;
  header: string;
  formato: Formato;
  /** Summed in `totales` (the whole selection) and in the subtotals. */
  total?: boolean;
  /** Worked out here from the row (a margin's percentage); never sortable on the server. */
  calcular?: (row: Fila) => bigint | number | string | null;
  /** Not sortable (the server doesn't order by it). */
  sinOrden?: boolean;
  /** Shown on a phone (390 px): the few columns an owner reads first. */
  movil?: boolean;
  /** Shown only with these flags on (tariff 2, PVP 3). */
  flag?: FlagName;
};

/** The report's own filters (`param` is what the server receives). */
export type FiltroId =
  | 'almacen'
  | 'furgoneta'
  | 'familia'
  | 'marca'
  | 'proveedor'
  | 'cliente'
  | 'articulo'
  | 'serie'
  | 'terminal'
  | 'usuario'
  | 'estado'
  | 'tipo'
  | 'causa'
  | 'clave'
  | 'dias';

export type Opcion = { value: string; label: string };

export type Agrupacion = {
  value: string;
  label: string;
  /** Offered only with this flag on (by terminal: tpv). */
  flag?: FlagName;
  /** The columns that name the group (then the report's figures). */
  claves: Columna[];
  /** Where a click on a row goes: a record, or this or another report filtered one level down. */
  abrir?: (row: Fila, ctx: Contexto) => string | null;
};

export type Contexto = {
  /** The report's search params now (filters, period, grouping). */
  params: URLSearchParams;
  /** Address of a report with params (absolute). */
  informe: (slug: string, params: Record<string, string | undefined>, conservar?: boolean) => string;
};

export type Grafico = {
  /** The figure drawn (a column id with `total`). */
  valor: string;
  /** Title over the chart. */
  titulo: string;
};

export type Informe = {
  /** Its address under /informes. */
  slug: string;
  titulo: string;
  /** One line under the title: what it sums. */
  descripcion: string;
  /** The op.asp GET action. */
  ac: string;
  grupo: 'Informes' | 'Fiscal';
  /** What the menu entry needs (the server's gate is the truth). */
  module?: FlagName | FlagName[];
  area?: MenuArea;
  /** 'rango': desde/hasta; 'fecha': a stock at a date; 'ejercicio': a year (the 347); 'ninguno': the present (prices). */
  periodo: 'rango' | 'fecha' | 'ejercicio' | 'ninguno';
  /** The quick choice a first visit starts with. */
  periodoInicial?: 'este-mes' | 'mes-pasado' | 'este-trimestre' | 'trimestre-pasado' | 'este-ano' | 'ano-pasado';
  filtros: FiltroId[];
  /** Options of the «Estado» / «Tipo» filters. */
  estados?: Opcion[];
  tipos?: Opcion[];
  /** Ways of grouping (`agrupar`); the first one is the default. One entry: the report's rows are its details. */
  agrupar: Agrupacion[];
  /**
   * Views of the same report (`vista`); the first is the default. `params`: what the view sends instead of
   * `vista=value` (the tariffs' «below cost» is `bajo_coste=1`); `local`: nothing is sent, only the columns change.
   */
  vistas?: (Opcion & { params?: Record<string, string>; local?: boolean })[];
  /** The figures, after the group's columns (by view and grouping when they change with them). */
  cifras: Columna[] | ((vista: string, agrupar: string) => Columna[]);
  /**
   * A subtotal after each run of rows with the same `clave(row)` (the page's rows; the totals row is the server's):
   * with these groupings, and while the rows are sorted by one of `orden` (undefined: the report's own order).
   */
  subtotal?: { clave: (row: Fila) => string; etiqueta: (row: Fila) => string; agrupar?: string[]; orden?: (string | undefined)[] };
  grafico?: Grafico;
  /** The server answers every row at once (a 303's boxes): no pager. */
  sinPaginas?: boolean;
  /** Also exported as .xlsx (the IVA books, in the AEAT's columns). */
  xlsx?: boolean;
};
