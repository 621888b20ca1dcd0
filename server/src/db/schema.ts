import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';
import type { Articulo, Cliente, Configuracion, Familia, Proceso, Proveedor, Serie, Subfamilia, Usuario } from 'shared/domain';

/** Integer 0/1 flag column. */
type Flag = 0 | 1;

/** The table of a shared/domain record: its id generated, every other column as the record declares it. */
type TableOf<T extends { id: number }> = { id: Generated<number> } & Omit<T, 'id'>;

export type ConfiguracionTable = TableOf<Omit<Configuracion, 'minorista' | 'stock_negativo' | 'impuesto'>> & {
  minorista: Generated<0 | 1>;
  stock_negativo: Generated<0 | 1>;
  impuesto: Generated<'iva' | 'igic' | 'ipsi'>;
};

export type UsuariosTable = TableOf<Omit<Usuario, 'rol_id' | 'rol_nombre' | 'con_pin'>> & {
  password_hash: string;
  /** The cashier's PIN at a paired till, hashed like a password (migration 0014). */
  pin_hash?: string | null;
  /** Always set (a user without one, from an old backup, gets Administrador on restore). */
  rol_id: number | null;
};

/** Roles (migration 0009): built-in ones have a `clave` and are rewritten from the code on every start. */
export type RolesTable = {
  id: Generated<number>;
  nombre: string;
  clave: string | null;
  predefinido: Flag;
  /** JSON of Derechos (shared/domain/roles.ts). */
  derechos: string;
  creado: string;
};

export type SesionesTable = {
  token_hash: string;
  usuario_id: number;
  creada: string;
  expira: string;
  ip: string | null;
  agente: string | null;
  /** The terminal whose PIN login opened it (issue 23: the till's actions only); null for a password login. */
  terminal_id: number | null;
};

export type RecuperacionesTable = {
  token_hash: string;
  usuario_id: number;
  expira: string;
  usada: Flag;
};

export type IntentosLoginTable = {
  id: Generated<number>;
  clave: string;
  fecha: string;
};

/** `terminal` is the list's join (the TPV terminal whose serie it is), not a column. */
export type SeriesTable = TableOf<Omit<Serie, 'terminal'>>;

export type ArchivosTable = {
  id: string;
  nombre: string;
  tipo: string;
  tamano: number;
  datos: ColumnType<Buffer, Buffer | Uint8Array, Buffer | Uint8Array>;
  creado: string;
};

export type DocumentosTable = {
  id: Generated<number>;
  tipo: string;
  serie_id: number | null;
  numero: number | null;
  fecha: string;
  estado: string;
  /** Cents. */
  total: number;
  creado: string;
  // Issue 6: the document engine's header (docs/documentos.md).
  ejercicio: Generated<number>;
  almacen_id: number | null;
  almacen_destino_id: number | null;
  familia_id: number | null;
  ubicacion_id: number | null;
  cliente_id: number | null;
  proveedor_id: number | null;
  forma_pago: string | null;
  fecha_entrega: string | null;
  /** Hundredths of a percent. */
  retencion: Generated<number>;
  con_recargo: Generated<Flag>;
  observaciones: string | null;
  /** Issue 17: what the customer's or supplier's PDF prints (the internal `observaciones` never print there). */
  observaciones_cliente?: string | null;
  /** Cents, stored on every save by calcularTotales. */
  base: Generated<number>;
  iva: Generated<number>;
  recargo: Generated<number>;
  retencion_importe: Generated<number>;
  /** JSON of DesgloseIva[]. */
  desglose: string | null;
  /** Client idempotency key (unique). */
  clave: string | null;
  creado_por: number | null;
  modificado: string | null;
  modificado_por: number | null;
  // Issue 8 (ventas).
  tipo_factura?: string | null;
  factura_id?: number | null;
  modo_rectificacion?: string | null;
  cobro_fecha?: string | null;
  cobro_forma?: string | null;
  usuario_id?: number | null;
  // Issue 16 (migration 0018): what an invoice was issued with.
  /** The serie's code at emission (the displayed number's prefix). */
  serie_codigo?: string | null;
  /** JSON of EmisionDocumento: the issuer's and the recipient's blocks as printed. */
  emision?: string | null;
  /** aaaa-mm-dd: the operation's date when earlier than the invoice's (the albaranes it invoices). */
  fecha_operacion?: string | null;
  /** Issue 16 (0023): JSON array of the further invoice ids a rectificativa corrects (besides factura_id). */
  facturas_rectificadas?: string | null;
  // Issue 17: what is left to collect (cents; negative: a refund owed) and the instalments paid.
  por_cobrar: Generated<number>;
  plazos_cubiertos: Generated<number>;
  /** Issue 17: a purchase albarán's supplier delivery-note number. */
  albaran_proveedor?: string | null;
};

/** Issue 17: cobros of invoices (refunds of rectificativas: negative), cents. */
export type CobrosTable = {
  id: Generated<number>;
  documento_id: number;
  fecha: string;
  importe: number;
  forma: string | null;
  creado: string;
  creado_por: number | null;
};

export type DocumentoLineasTable = {
  id: Generated<number>;
  documento_id: number;
  orden: number;
  articulo_id: number;
  codigo: string;
  descripcion: string;
  tipo_iva: string;
  /** Thousandths. */
  cantidad: number;
  /** Ten-thousandths. */
  precio: number;
  /** Hundredths of a percent. */
  descuento: number;
  recargo: Generated<number>;
  /** Thousandths still to be received / served / invoiced. */
  pendiente: Generated<number>;
  almacen_id: number | null;
  ubicacion_id: number | null;
  motivo: string | null;
  teorico: number | null;
  /** Cost of the goods a sale line moved, ten-millionths of a euro (Σ −cantidad × average cost of its ledger rows), kept by the ledger's insert trigger (migration 0015). */
  coste_libro?: ColumnType<number | null, never, never>;
  /** A ticket line's unit price with IVA, as the till showed it (migration 0014). */
  precio_iva?: number | null;
  /** Issue 16: the operation (S1, S2, E1-E6, N1, N2); null is S1 (E1 for an exempt rate). */
  operacion?: string | null;
};

/** Child line ← parent line, with the quantity it takes. */
export type DocumentoEnlacesTable = { id: Generated<number>; linea_id: number; padre_linea_id: number; cantidad: number };

/** The action log: what ran on a document, the state before, the pending deltas it applied, and who undid it. */
export type DocumentoAccionesTable = {
  id: Generated<number>;
  documento_id: number;
  accion: string;
  fecha: string;
  usuario_id: number | null;
  estado_antes: string;
  /** JSON: { pendiente?: [lineId, delta][], teorico?: true }. */
  detalle: string | null;
  deshecha_por: number | null;
};

/** Numbering per document type, serie (0 when none) and ejercicio. */
export type ContadoresTable = { tipo: string; serie_id: number; ejercicio: number; ultimo: number; ultima_fecha: string | null };

export type UbicacionesTable = { id: Generated<number>; almacen_id: number; codigo: string; descripcion: string | null; activo: Flag };

/** The default location of an article in a warehouse. */
export type ArticuloUbicacionesTable = { articulo_id: number; almacen_id: number; ubicacion_id: number };

export type Database = {
  configuracion: ConfiguracionTable;
  usuarios: UsuariosTable;
  roles: RolesTable;
  sesiones: SesionesTable;
  recuperaciones: RecuperacionesTable;
  intentos_login: IntentosLoginTable;
  series: SeriesTable;
  archivos: ArchivosTable;
  documentos: DocumentosTable;
  cobros: CobrosTable;
  almacenes: AlmacenesTable;
  familias: FamiliasTable;
  subfamilias: SubfamiliasTable;
  marcas: MarcasTable;
  materiales: MaterialesTable;
  procesos: ProcesosTable;
  articulos: ArticulosTable;
  articulo_materiales: ArticuloMaterialesTable;
  articulo_procesos: ArticuloProcesosTable;
  articulo_componentes: ArticuloComponentesTable;
  articulo_proporciones: ArticuloProporcionesTable;
  stock_movimientos: StockMovimientosTable;
  ubicaciones: UbicacionesTable;
  articulo_ubicaciones: ArticuloUbicacionesTable;
  documento_lineas: DocumentoLineasTable;
  documento_enlaces: DocumentoEnlacesTable;
  documento_acciones: DocumentoAccionesTable;
  contadores: ContadoresTable;
  proveedores: ProveedoresTable;
  facturas_proveedor: FacturasProveedorTable;
  facturas_proveedor_documentos: FacturasProveedorDocumentosTable;
  pagos_proveedor: PagosProveedorTable;
  remesas: RemesasTable;
  remesa_recibos: RemesaRecibosTable;
  clientes: ClientesTable;
  parte_horas: ParteHorasTable;
  registros_facturacion: RegistrosFacturacionTable;
  registros_cadena: RegistrosCadenaTable;
  verifactu: VerifactuTable;
  verifactu_envios: VerifactuEnviosTable;
  demo_datos: DemoDatosTable;
  copias_programadas: CopiasProgramadasTable;
  actividad: ActividadTable;
  tpv_terminales: TpvTerminalesTable;
  tpv_paginas: TpvPaginasTable;
  tpv_botones: TpvBotonesTable;
  tpv_cajas: TpvCajasTable;
  tpv_cierres: TpvCierresTable;
  tpv_movimientos: TpvMovimientosTable;
  tpv_tickets: TpvTicketsTable;
  tpv_pagos: TpvPagosTable;
  tpv_incidencias: TpvIncidenciasTable;
  tpv_vales: TpvValesTable;
};

// TPV (issue 13, migration 0014).
export type TpvTerminalesTable = {
  id: Generated<number>;
  nombre: string;
  almacen_id: number;
  serie_id: number;
  serie_rectificativa_id: number;
  cliente_id: number | null;
  numero_instalacion: string;
  /** JSON array of FormaPagoTpv. */
  formas_pago: string;
  fondo: number;
  activo: Flag;
  /** Issue 23: 1 = blind count (cajatpv hides the expected figures until the closing is saved). */
  arqueo_ciego: Generated<Flag>;
  /** Issue 23 (migration 0042): minutes without use before the till locks and asks for a PIN; 0 = never. */
  bloqueo_minutos: Generated<number>;
  /** Issue 23 (migration 0042): how the till prints: 'navegador' | 'usb' (ESC/POS, WebUSB) | 'serie' (ESC/POS, WebSerial). */
  impresora: Generated<string>;
  token_hash: string | null;
  emparejado: string | null;
  codigo_hash: string | null;
  codigo_expira: string | null;
  creado: string;
};
export type TpvPaginasTable = { id: Generated<number>; terminal_id: number | null; orden: number; nombre: string; familia_id: number | null; color: string | null };
export type TpvBotonesTable = { id: Generated<number>; pagina_id: number; posicion: number; articulo_id: number; color: string | null; etiqueta: string | null };
export type TpvCajasTable = { id: Generated<number>; terminal_id: number; usuario_id: number | null; apertura: string; fondo: number; cierre_id: number | null };
export type TpvCierresTable = {
  id: Generated<number>;
  terminal_id: number;
  codigo: number;
  caja_id: number;
  usuario_id: number | null;
  apertura: string;
  cierre: string;
  fondo: number;
  tickets: number;
  devoluciones: number;
  total: number;
  efectivo_esperado: number;
  efectivo_contado: number;
  diferencia: number;
  /** JSON of the whole CierreTpv (the Z report's data). */
  datos: string;
};
export type TpvMovimientosTable = {
  id: Generated<number>;
  terminal_id: number;
  caja_id: number;
  uuid: string | null;
  fecha_hora: string;
  usuario_id: number | null;
  importe: number;
  motivo: string;
};
export type TpvTicketsTable = {
  documento_id: number;
  uuid: string | null;
  tipo: 'ticket' | 'devolucion' | 'factura';
  terminal_id: number;
  caja_id: number | null;
  ticket_id: number | null;
  fecha_hora: string;
  usuario_id: number | null;
  cambio: number;
  offline: number;
};
/** Issue 23 (migration 0041): a store credit given as a return's refund at the till; spent once, whole. */
export type TpvValesTable = {
  id: Generated<number>;
  codigo: string;
  importe: number;
  terminal_id: number;
  documento_id: number | null;
  creado: string;
  documento_usado: number | null;
  usado: string | null;
  /** Issue 23 (migration 0043): what is left on it (cents); used up at 0. */
  saldo: number | null;
};
export type TpvPagosTable = {
  id: Generated<number>;
  documento_id: number;
  orden: number;
  forma: string;
  importe: number;
  entregado: number;
  /** Issue 23 (migration 0043): a payment by vale, its code and the balance it left. */
  vale?: string | null;
  vale_saldo?: number | null;
};
/** Issue 23 (migration 0036): what an upload from a till broke, stored as issued; or a corrupt record kept aside (tipo 'registro'). */
export type TpvIncidenciasTable = {
  id: Generated<number>;
  terminal_id: number;
  caja_id: number | null;
  documento_id: number | null;
  movimiento_id: number | null;
  uuid: string | null;
  tipo: string;
  detalle: string;
  remedio: string;
  /** JSON: the upload as received (a record kept aside). */
  datos: string | null;
  fecha: string;
  usuario_id: number | null;
  resuelta: Generated<Flag>;
  resuelta_fecha: string | null;
  resuelta_por: number | null;
};

/** The activity log (migration 0010): append-only, written by actividad/registro.ts in each change's transaction. */
export type ActividadTable = {
  id: Generated<number>;
  fecha: string;
  usuario_id: number | null;
  usuario_nombre: string | null;
  ip: string | null;
  accion: string;
  tipo: string;
  entidad: string | null;
  entidad_id: number | null;
  numero: string | null;
  /** JSON of the changed fields (masters and configuration). */
  antes: string | null;
  despues: string | null;
};

/** The demo's generated rows: per table, their id range (migration 0012_demo). */
export type DemoDatosTable = { tabla: string; desde: number; hasta: number };

// Ventas (issue 8).
export type ClientesTable = TableOf<Omit<Cliente, 'ventas_por_ejercicio' | 'pendiente_cobro' | 'vencido'>>;
/** Hours of a parte de trabajo: thousandths of an hour × ten-thousandths of a euro per hour. */
export type ParteHorasTable = { id: Generated<number>; documento_id: number; orden: number; proceso_id: number; horas: number; precio: number };
/** VERI*FACTU records (append-only): see shared/domain/fiscal.ts RegistroFacturacion. */
export type RegistrosFacturacionTable = {
  id: Generated<number>;
  emisor: string;
  orden: number;
  tipo: 'alta' | 'anulacion';
  documento_id: number;
  num_serie: string;
  fecha_expedicion: string;
  tipo_factura: string | null;
  cuota_total: string | null;
  importe_total: string | null;
  huella_anterior: string;
  huella: string;
  fecha_hora_huso: string;
  xml: string;
  estado_envio: Generated<string>;
  creado: string;
  // Submission (issue 9): the AEAT's answer, when it left and in which envío, and the record it corrects.
  csv?: string | null;
  codigo_error?: string | null;
  descripcion_error?: string | null;
  enviado?: string | null;
  envio_id?: number | null;
  subsana_id?: number | null;
  /** Issue 16: 1 when generated while the submission was failing (sent with Incidencia = S). */
  incidencia?: Generated<number>;
  /** Issue 22 (migration 0031): what the record was made for, frozen: its QR's host and legend (shared/domain/fiscal.ts presentacionQr). */
  entorno: Generated<'produccion' | 'pruebas'>;
  /** 1: made by the demo company (never leaves for production; prints «DEMOSTRACIÓN»). */
  demo: Generated<number>;
  /** 1: made while sending to the AEAT was on (a VERI*FACTU record: «Factura verificable»). */
  verifactu: Generated<number>;
};
/** VERI*FACTU settings (one row, id 1): see server/src/fiscal/verifactu.ts. */
/** The daily backup's state, one row (migration 0037, copias/programadas.ts). */
export type CopiasProgramadasTable = {
  id: number;
  lease_id: string | null;
  lease_hasta: string | null;
  /** The business day (YYYY-MM-DD) of the last backup taken and verified. */
  dia: string | null;
  archivo: string | null;
  creada: string | null;
  error: string | null;
};

export type VerifactuTable = {
  id: number;
  activo: Generated<number>;
  entorno: Generated<string>;
  certificado: Buffer | null;
  certificado_iv: Buffer | null;
  certificado_tag: Buffer | null;
  titular: string | null;
  nif: string | null;
  emisor_certificado: string | null;
  caduca: string | null;
  tiempo_espera: Generated<number>;
  proximo_envio: string | null;
  ultimo_envio: string | null;
  ultimo_error: string | null;
  fallos: Generated<number>;
  lease_id: string | null;
  lease_hasta: string | null;
  /** Issue 17: from this date (YYYY-MM-DD) every record must reach the AEAT. */
  fecha_obligacion: Generated<string>;
  autofirmado: Generated<number>;
  /** Issue 16 (migration 0023): NumeroInstalacion, generated once; the certificate is a seal's; it is a representative's. */
  numero_instalacion?: string | null;
  sello?: Generated<number>;
  representante?: Generated<number>;
  /** Issue 16 (migration 0025): the last day of the year the company leaves VERI*FACTU (FechaFinVeriFactu), and when the AEAT took it. */
  fin_verifactu?: string | null;
  fin_comunicado?: string | null;
  /** Issue 22 (migration 0031): 1 while the company is the demo (a sandbox), 0 once live. */
  demo: Generated<number>;
  /** Issue 22 (migration 0032): when «Empezar con mis datos» last ran (a till's chain and numbering start again there). */
  inicio?: string | null;
  /** Issue 22 (migration 0035): 1 when the owner chose the obligation date; 0: it follows the company's NIF. */
  fecha_obligacion_manual: Generated<number>;
  /** Issue 22 (migration 0034): the version the declaración responsable was made for here, and the day it was first made for it. */
  declaracion_version?: string | null;
  declaracion_fecha?: string | null;
};
/** One submission to the AEAT (or an attempt that failed in transport). */
export type VerifactuEnviosTable = {
  id: Generated<number>;
  fecha: string;
  emisor: string;
  entorno: string;
  registros: number;
  /** The AEAT's EstadoEnvio (Correcto, ParcialmenteCorrecto, Incorrecto) or 'error' (transport). */
  estado: string;
  csv: string | null;
  tiempo_espera: number | null;
  http_status: number | null;
  error: string | null;
  respuesta: string | null;
};
/** The head of each issuer's chain, locked by the emission that extends it. */
export type RegistrosCadenaTable = { emisor: string; ultimo_orden: number; ultima_huella: string };

// Compras (issue 7).
export type ProveedoresTable = TableOf<Omit<Proveedor, 'compras_por_ejercicio' | 'pendiente_pago' | 'vencido_pago'>>;
/** A supplier invoice recorded by hcp; amounts in cents. */
export type FacturasProveedorTable = {
  id: Generated<number>;
  proveedor_id: number;
  numero_proveedor: string;
  fecha: string;
  /** As typed from the supplier's invoice. */
  total: number;
  /** Computed from its documents (devoluciones negative). */
  base: number;
  iva: number;
  total_documentos: number;
  creado: string;
  creado_por: number | null;
  // Issue 26 (0048): its due dates (JSON of 'aaaa-mm-dd'), what is left to pay (cents), the abono's invoice.
  forma_pago?: string | null;
  vencimientos?: string | null;
  por_pagar?: Generated<number>;
  plazos_cubiertos?: Generated<number>;
  pago_fecha?: string | null;
  rectifica_id?: number | null;
};
/** Issue 26: a payment of a supplier invoice (cents; a refund received from the supplier, negative). */
export type PagosProveedorTable = { id: Generated<number>; factura_id: number; fecha: string; importe: number; forma: string | null; creado: string; creado_por: number | null };
/** Issue 26: a remesa of SEPA direct debits and its receipts (one instalment of an invoice each). */
export type RemesasTable = { id: Generated<number>; fecha_cargo: string; hasta: string; estado: string; pagada_fecha: string | null; creado: string; creado_por: number | null };
export type RemesaRecibosTable = {
  id: Generated<number>;
  remesa_id: number;
  documento_id: number;
  cliente_id: number;
  plazo: number;
  vencimiento: string;
  importe: number;
  secuencia: string;
  esquema: string;
  mandato_referencia: string;
  mandato_fecha: string;
  iban: string;
  cobro_id: number | null;
  devuelto_fecha: string | null;
  devuelto_motivo: string | null;
};
export type FacturasProveedorDocumentosTable = { factura_id: number; documento_id: number };

// Catalogue (issue 3). Scales: prices and costs in ten-thousandths, PVP in cents, quantities in
// thousandths, percentages in hundredths; always integers.

/** familias, marcas, materiales, almacenes: code, name, active. */
export type MaestroTable = TableOf<Familia>;
export type AlmacenesTable = MaestroTable & {
  direccion: string | null;
  es_furgoneta: Generated<Flag>;
  matricula: string | null;
  conductor_id: number | null;
};
export type FamiliasTable = MaestroTable;
export type MarcasTable = MaestroTable;
export type MaterialesTable = MaestroTable;
/** familia_nombre is the list's join, not a column. */
export type SubfamiliasTable = TableOf<Omit<Subfamilia, 'familia_nombre'>>;
/** tiempo in minutes, coste in ten-thousandths of a euro. */
export type ProcesosTable = TableOf<Proceso>;

/** What the article record carries besides its columns: the list's joins, the figures, the links. */
type ArticuloNotColumns =
  | 'familia_nombre'
  | 'subfamilia_nombre'
  | 'marca_nombre'
  | 'precio_medio_compra'
  | 'precio_medio_venta'
  | 'unidades_compradas'
  | 'unidades_vendidas'
  | 'stock_total'
  | 'stock'
  | 'materiales'
  | 'procesos'
  | 'componentes'
  | 'proporciones';

export type ArticulosTable = TableOf<Omit<Articulo, ArticuloNotColumns>> & {
  /** Normalised words of codigo, referencia, descripcion, palabras_clave, codigo_barras (the search index's text). */
  busqueda: string;
  /** descripcion without accents, lower case: the sort key of "by description". */
  orden_descripcion: string;
  /** Σ stock_movimientos.cantidad of the article, kept by database triggers; never written by the application. */
  stock_total: ColumnType<number, never, never>;
  /** The average cost (ten-thousandths; null before any valued entry), kept by the ledger's insert trigger (documentos/coste.ts); only Recalcular writes it. */
  coste_medio: ColumnType<number | null, never, number | string | null>;
};

export type ArticuloMaterialesTable = { articulo_id: number; material_id: number };
export type ArticuloProcesosTable = { articulo_id: number; proceso_id: number };
export type ArticuloComponentesTable = { articulo_id: number; componente_id: number; cantidad: number };
export type ArticuloProporcionesTable = { articulo_id: number; material_id: number; porcentaje: number };

/** The stock ledger: stock of an article in a warehouse = Σ cantidad of its rows. */
export type StockMovimientosTable = {
  id: Generated<number>;
  articulo_id: number;
  almacen_id: number;
  ubicacion: string | null;
  /** Signed, thousandths: + in, − out. */
  cantidad: number;
  causa: string;
  documento_tipo: string | null;
  documento_id: number | null;
  /** 'YYYY-MM-DD' or an ISO timestamp. */
  fecha: string;
  /** Net unit price of the movement, ten-thousandths. */
  precio: number;
  ubicacion_id?: number | null;
  documento_linea_id?: number | null;
  /** The documento_acciones row that wrote it (its undo writes the opposite rows). */
  accion_id?: number | null;
  /** The article's average cost right after this row (ten-thousandths; null before any valued entry), written by the insert trigger (migration 0015). */
  coste?: ColumnType<number | null, never, number | string | null>;
};

export type ConfiguracionRow = Selectable<ConfiguracionTable>;
export type UsuarioRow = Selectable<UsuariosTable>;
export type SerieRow = Selectable<SeriesTable>;
export type NewDocumento = Insertable<DocumentosTable>;
export type ArticuloRow = Selectable<ArticulosTable>;
export type NewArticulo = Insertable<ArticulosTable>;
export type NewStockMovimiento = Insertable<StockMovimientosTable>;
