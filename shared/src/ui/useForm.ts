import { useCallback, useState } from 'react';
import { checkField, type FieldErrors, type Schema } from '../domain/validation';
import { ApiHttpError } from '../api/client';

export type FormValues = Record<string, unknown>;

/**
 * Form state validated with the same schema the server applies, so the user sees the
 * specification's messages before the request leaves, and the server's field errors after.
 */
export function useForm<V extends FormValues>(schema: Schema, initial: V) {
  const [values, setValues] = useState<V>(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [dirty, setDirty] = useState(false);

  const set = useCallback(
    (name: keyof V & string, value: unknown) => {
      setValues((v) => ({ ...v, [name]: value }));
      setDirty(true);
      setErrors((e) => {
        if (!e[name]) return e;
        const rule = schema[name];
        const r = rule ? checkField(name, rule, value) : { value };
        const next = { ...e };
        if ('error' in r) next[name] = r.error;
        else delete next[name];
        return next;
      });
    },
    [schema],
  );

  /**
   * Validates everything; returns true when the form can be sent. `extra` adds or overrides rules
   * (a password required only when creating); `check` adds cross-field errors (two passwords differ).
   */
  const validateAll = useCallback(
    (extra?: Schema, check?: (values: V) => FieldErrors): boolean => {
      const all = { ...schema, ...extra };
      const next: FieldErrors = {};
      for (const [name, rule] of Object.entries(all)) {
        const r = checkField(name, rule, values[name]);
        if ('error' in r) next[name] = r.error;
      }
      for (const [name, error] of Object.entries(check?.(values) ?? {})) next[name] ??= error;
      setErrors(next);
      return Object.keys(next).length === 0;
    },
    [schema, values],
  );

  /** Shows a server's HTTP 400 field errors on the form; returns whether there were any. */
  const takeServerErrors = useCallback((err: unknown): boolean => {
    if (err instanceof ApiHttpError && err.body.errors) {
      setErrors(err.body.errors);
      return true;
    }
    return false;
  }, []);

  const reset = useCallback((v: V) => {
    setValues(v);
    setErrors({});
    setDirty(false);
  }, []);

  return { values, errors, set, setErrors, validateAll, takeServerErrors, reset, dirty };
}
