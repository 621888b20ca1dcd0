/**
 * The document engine's public face for the op.asp actions (actions/): what its files export, by job —
 * tipos.ts (what a type gives the engine, the registry), lectura.ts (reading, listing, locking),
 * validacion.ts (lines, party, serie, a verb's `lineas`), numeracion.ts (counters), guardar.ts
 * (editar / eliminar with lines, links and stock), acciones.ts (<verbo>: effects, children, undo).
 * Inside documentos/ import the file itself.
 */
export { crearHijo, ejecutarAccion, ejecutarAccionEn } from './acciones.ts';
export { borrarDocumento, eliminarDocumento, guardarDocumento, insertarDocumento, insertarLineas, insertarLineasDe } from './guardar.ts';
export type { SaveInput } from './guardar.ts';
export { lockDocumento, numeroDeTipo, readDocumento } from './lectura.ts';
export { numeroEnSerie, siguienteNumero } from './numeracion.ts';
export { efectosDe, registrarTipo } from './tipos.ts';
export type { Detalle, DocRow, EffectContext, EffectResult, LineaValida, TipoEffects, TipoRegistrado, ValidateContext } from './tipos.ts';
export { validarSerie } from './validacion.ts';
export type { TerceroLeido } from './validacion.ts';
