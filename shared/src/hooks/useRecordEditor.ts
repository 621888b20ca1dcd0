import { useCallback, useEffect, useRef, useState } from 'react';
import type { FieldErrors, Schema } from '../domain/validation';
import { validate } from '../domain/validation';
import { useForm, type FormValues } from '../ui/useForm';
import { useAction, useRecord } from './useApi';
import { usePermisos } from './usePermisos';

export type RecordEditorContext<V> = { isNew: boolean; values: V };

export type RecordEditorOptions<R extends { id: number }, V extends FormValues> = {
  /** The entity's op.asp actions: `listado<entidades>` (read with `&id=`), `editar<entidad>`, `eliminar<entidad>`. */
  actions: { list: string; save: string; remove?: string };
  /** The record's id from the route; undefined for the "nuevo" screen. */
  id: string | number | undefined;
  /** The action's input schema: the form validates with it before sending. */
  schema: Schema;
  /** Values of a new record. */
  empty: V;
  /** Form values of a loaded or saved record. */
  toValues: (record: R) => V;
  /** Extra rules and cross-field checks that depend on the screen (e.g. a password only required when creating). */
  rules?: (ctx: RecordEditorContext<V>) => { schema?: Schema; check?: (values: V) => FieldErrors };
  /**
   * Body of the save action from the schema-validated (trimmed, normalised) values.
   * Default: those values, plus `id` when editing.
   */
  toBody?: (validated: Record<string, unknown>, ctx: RecordEditorContext<V>) => Record<string, unknown>;
  onSaved?: (record: R, isNew: boolean) => void;
  onRemoved?: () => void;
};

/**
 * The state of every list/record/new screen of the back office: loads the record, keeps the form
 * (client validation with the server's schema, the server's field errors after), saves with the
 * specification's toasts and deletes (RESULT 2 shows 'Acción no posible').
 *
 * @example
 * const editor = useRecordEditor<Serie, SerieValues>({
 *   actions: { list: 'listadoseries', save: 'editarserie', remove: 'eliminarserie' },
 *   id: serieId, schema: serieSchema, empty: { codigo: '', descripcion: '', tipo: '', activo: 1 },
 *   toValues: (s) => ({ ...s }), onSaved: (s, isNew) => isNew && navigate(`../serie/${s.id}`),
 * });
 */
export function useRecordEditor<R extends { id: number }, V extends FormValues>(options: RecordEditorOptions<R, V>) {
  const { actions, id, schema, empty, toValues, rules, toBody, onSaved, onRemoved } = options;
  const isNew = id === undefined;
  const { record, setRecord, loading, notFound } = useRecord<R>(actions.list, id);
  const form = useForm<V>(schema, empty);
  const { run, busy } = useAction();
  const permisos = usePermisos();
  // What the user's role lets the server do: RecordActions shows no «Guardar» / «Eliminar» it would refuse.
  const puedeGuardar = permisos.accion(actions.save);
  const puedeEliminar = !!actions.remove && permisos.accion(actions.remove);
  const [removing, setRemoving] = useState(false);
  const { reset } = form;

  // toValues is usually an inline function: the form follows the record only, with the latest toValues.
  const latestToValues = useRef(toValues);
  latestToValues.current = toValues;
  // Which record the form shows: until the effect has copied a fresh record in, the screen is still
  // loading (otherwise it paints one frame of empty fields).
  const [shown, setShown] = useState<R | null>(null);
  useEffect(() => {
    if (record) {
      reset(latestToValues.current(record));
      setShown(record);
    }
  }, [record, reset]);

  /** Validates and saves; resolves true when the server saved it. */
  const save = useCallback(async (): Promise<boolean> => {
    if (!puedeGuardar) return false;
    const ctx = { isNew, values: form.values };
    const extra = rules?.(ctx);
    if (!form.validateAll(extra?.schema, extra?.check)) return false;
    const checked = validate({ ...schema, ...extra?.schema }, form.values);
    if (!checked.ok) return false;
    const validated = checked.value as Record<string, unknown>;
    const body = toBody ? toBody(validated, ctx) : { ...validated, ...(isNew ? {} : { id: record?.id ?? Number(id) }) };
    const outcome = await run<R>(actions.save, body);
    if (!outcome.ok) {
      form.takeServerErrors(outcome.error);
      return false;
    }
    const saved = outcome.data[0];
    if (saved) {
      setRecord(saved);
      reset(toValues(saved));
      setShown(saved);
    }
    if (saved) onSaved?.(saved, isNew);
    return true;
  }, [puedeGuardar, isNew, form, rules, schema, toBody, record, id, run, actions.save, setRecord, reset, toValues, onSaved]);

  /** Deletes the record; resolves true when the server deleted it. */
  const remove = useCallback(async (): Promise<boolean> => {
    if (!actions.remove || isNew) return false;
    setRemoving(true);
    try {
      const outcome = await run(actions.remove, { id: record?.id ?? Number(id) });
      if (outcome.ok) onRemoved?.();
      return outcome.ok;
    } finally {
      setRemoving(false);
    }
  }, [actions.remove, isNew, run, record, id, onRemoved]);

  const syncing = record !== null && shown !== record;
  return {
    form,
    record,
    isNew,
    loading: !isNew && (loading || syncing),
    notFound: !isNew && notFound,
    save,
    remove,
    saving: busy && !removing,
    removing,
    puedeGuardar,
    puedeEliminar,
  };
}
