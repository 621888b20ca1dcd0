import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { ApiHttpError } from '../api/client';
import { documentoAlmacenSchema, type Documento, type DocumentoTipoDef } from '../domain/documentos';
import { validate, type FieldErrors, type Schema } from '../domain/validation';
import { useAction, useRecord } from '../hooks/useApi';
import { usePermisos } from '../hooks/usePermisos';
import { necesidadDocumento } from '../domain/roles';
import { useForm } from '../ui/useForm';
import { lineaDesdeDocumento, lineasAInput, lineasReducer, validarLineas, LINEA_MENSAJES, type LineaEditable } from './lineas';

/** Header values as the form holds them (text of inputs and selects); the schema turns them into the body. */
export type CabeceraValues = Record<string, string>;

export type DocumentEditorOptions = {
  /** Header fields of `editar<entidad>` (default: the warehouse documents' `documentoAlmacenSchema`). */
  schema?: Schema;
  /** Header values of a new document beyond the defaults (fecha: today, the rest empty). */
  empty?: CabeceraValues;
  /** A document with no lines can be saved (an inventory started empty, filled by scanning later). Default false. */
  permitirSinLineas?: boolean;
  /** Cross-field checks of the header ('El almacén de destino debe ser distinto del de origen'). */
  check?: (values: CabeceraValues) => FieldErrors;
  /**
   * More of `editar<entidad>`'s body than header and lines (a parte's `horas`), kept by the screen: sent as it is,
   * counted as a change while `dirty`, and `valido()` (which shows its own errors) must pass before saving.
   */
  extra?: { body: Record<string, unknown>; dirty: boolean; valido?: () => boolean };
  onSaved?: (documento: Documento, isNew: boolean) => void;
  onRemoved?: () => void;
};

/** Today as 'aaaa-mm-dd' in the browser's time zone. */
export function hoyIso(): string {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

const SIN_FORMULARIO = new Set(['id', 'clave']);

function cabeceraDe(schema: Schema, d: Documento): CabeceraValues {
  const rec = d as unknown as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(schema)
      .filter((k) => !SIN_FORMULARIO.has(k))
      .map((k) => [k, rec[k] === null || rec[k] === undefined ? '' : String(rec[k])]),
  );
}

/** A document's idempotency key (`clave`): a UUID, made once per new document on the client. */
export function nuevaClave(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  // Very old browsers: still unique enough for an idempotency key.
  return `${Date.now().toString(16)}-${Math.random().toString(16).slice(2)}-${Math.random().toString(16).slice(2)}`;
}

/**
 * The state of a document's record screen: loads `listado<plural>&id=`, keeps the header (a form
 * validated with the action's schema) and the lines (a reducer keyed by local line keys), knows
 * whether anything changed, saves header and lines at once with `editar<entidad>` and deletes with
 * `eliminar<entidad>`. A new document carries one `clave` (UUID) for its whole life on the screen,
 * so a double click or a retry after a network failure creates one document.
 *
 * @example
 * const editor = useDocumentEditor(DOCUMENTO_TIPOS.perdida, perdidaId, { onSaved: (d, isNew) => isNew && navigate(`../perdida/${d.id}`) });
 * <EditorLineas modo="perdida" lineas={editor.lineas} dispatch={editor.dispatch} errores={editor.lineErrors} readOnly={!editor.editable} />
 */
export function useDocumentEditor(def: DocumentoTipoDef, id: string | number | undefined, options: DocumentEditorOptions = {}) {
  const { onSaved, onRemoved, permitirSinLineas = false } = options;
  const schema = options.schema ?? documentoAlmacenSchema;
  const headerSchema = useMemo(() => Object.fromEntries(Object.entries(schema).filter(([k]) => !SIN_FORMULARIO.has(k))) as Schema, [schema]);
  const emptyKey = JSON.stringify(options.empty ?? {});
  const empty = useMemo<CabeceraValues>(
    () => ({
      ...Object.fromEntries(Object.keys(headerSchema).map((k) => [k, ''])),
      ...('fecha' in headerSchema ? { fecha: hoyIso() } : {}),
      ...(JSON.parse(emptyKey) as CabeceraValues),
    }),
    [headerSchema, emptyKey],
  );
  const isNew = id === undefined;
  const { record, setRecord, loading, notFound, reload } = useRecord<Documento>(`listado${def.plural}`, id);
  const form = useForm<CabeceraValues>(headerSchema, empty);
  const { reset, setErrors } = form;
  const [lineas, dispatch] = useReducer(lineasReducer, []);
  // The lines as loaded or saved: any other array means unsaved changes.
  const [base, setBase] = useState<LineaEditable[]>(lineas);
  const [lineErrors, setLineErrors] = useState<FieldErrors>({});
  const { run, busy } = useAction();
  const [removing, setRemoving] = useState(false);
  const clave = useRef<string | null>(null);
  const inflight = useRef<Promise<boolean> | null>(null);
  const latestCheck = useRef(options.check);
  latestCheck.current = options.check;
  const latestExtra = useRef(options.extra);
  latestExtra.current = options.extra;

  /** Shows a document (loaded, saved, or returned by a state action) as the screen's unchanged state. */
  const show = useCallback(
    (d: Documento) => {
      const ls = (d.lineas ?? []).map(lineaDesdeDocumento);
      reset(cabeceraDe(headerSchema, d));
      dispatch({ type: 'reset', lineas: ls });
      setBase(ls);
      setLineErrors({});
    },
    [reset, headerSchema],
  );

  const [shown, setShown] = useState<Documento | null>(null);
  useEffect(() => {
    if (record && record !== shown) {
      show(record);
      setShown(record);
    }
  }, [record, shown, show]);

  const setDocumento = useCallback(
    (d: Documento) => {
      setRecord(d);
      show(d);
      setShown(d);
    },
    [setRecord, show],
  );

  const estado = record?.estado ?? def.inicial;
  // Other documents come from its lines (an albarán with a devolución): the server refuses to rewrite or remove it.
  const conHijos = (record?.hijos?.length ?? 0) > 0;
  // And what the user's role lets the server do: without it the document is only read.
  const permisos = usePermisos();
  const puedeGuardar = permisos.cumple(necesidadDocumento(def, 'editar'));
  const puedeEliminar = permisos.cumple(necesidadDocumento(def, 'eliminar'));
  const editable = puedeGuardar && (isNew || (def.editable.includes(estado) && !conHijos));
  const eliminable = puedeEliminar && !isNew && def.eliminable.includes(estado) && !conHijos;
  const dirty = form.dirty || lineas !== base || !!options.extra?.dirty;

  const doSave = useCallback(async (): Promise<boolean> => {
    const headerOk = form.validateAll(undefined, latestCheck.current);
    const checkedLines = validarLineas(lineas, def.lineas, { negativas: def.negativas });
    if (!permitirSinLineas && lineas.length === 0) checkedLines.lineas = LINEA_MENSAJES.sinLineas;
    setLineErrors(checkedLines);
    const extra = latestExtra.current;
    const extraOk = extra?.valido ? extra.valido() : true;
    if (!headerOk || !extraOk || Object.keys(checkedLines).length > 0) return false;
    const checked = validate(headerSchema, form.values);
    if (!checked.ok) return false;
    const body: Record<string, unknown> = { ...(checked.value as Record<string, unknown>), ...extra?.body, lineas: lineasAInput(lineas, def.lineas) };
    if (record) body.id = record.id;
    else if (!isNew) body.id = Number(id);
    else {
      // One key for this new document, whatever the number of attempts.
      clave.current ??= nuevaClave();
      body.clave = clave.current;
    }
    const outcome = await run<Documento>(`editar${def.entidad}`, body);
    if (!outcome.ok) {
      const errs = outcome.error instanceof ApiHttpError ? outcome.error.body.errors : undefined;
      if (errs) {
        const header: FieldErrors = {};
        const ofLines: FieldErrors = {};
        for (const [k, v] of Object.entries(errs)) (k === 'lineas' || k.startsWith('lineas.') ? ofLines : header)[k] = v;
        setErrors(header);
        setLineErrors(ofLines);
      }
      return false;
    }
    const saved = outcome.data[0];
    if (saved) {
      setDocumento(saved);
      onSaved?.(saved, isNew);
    }
    return true;
  }, [form, lineas, def, permitirSinLineas, headerSchema, record, isNew, id, run, setErrors, setDocumento, onSaved]);

  /** Validates and saves header and lines; resolves true when the server saved them. A call while one is running joins it. */
  const save = useCallback((): Promise<boolean> => {
    if (inflight.current) return inflight.current;
    const p = doSave().finally(() => {
      inflight.current = null;
    });
    inflight.current = p;
    return p;
  }, [doSave]);

  /** Deletes the document; resolves true when the server deleted it (RESULT 2 shows 'Acción no posible'). */
  const remove = useCallback(async (): Promise<boolean> => {
    if (isNew) return false;
    setRemoving(true);
    try {
      const outcome = await run(`eliminar${def.entidad}`, { id: record?.id ?? Number(id) });
      if (outcome.ok) onRemoved?.();
      return outcome.ok;
    } finally {
      setRemoving(false);
    }
  }, [isNew, run, def.entidad, record, id, onRemoved]);

  const syncing = record !== null && shown !== record;
  return {
    documento: record,
    isNew,
    loading: !isNew && (loading || syncing),
    notFound: !isNew && notFound,
    reload,
    /** The header form; `dirty` also counts the lines (what RecordForm and RecordActions read). */
    form: { ...form, dirty },
    lineas,
    dispatch,
    /** Errors of the lines, keyed as the server's (`lineas.3.cantidad`), for EditorLineas's `errores`. */
    lineErrors,
    dirty,
    estado,
    editable,
    eliminable,
    save,
    saving: busy && !removing,
    remove,
    removing,
    /** A document returned by a state action (DocumentActions' onChange). */
    setDocumento,
  };
}

export type DocumentEditor = ReturnType<typeof useDocumentEditor>;
