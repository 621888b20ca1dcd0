import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiHttpError } from '../api/client';
import type { ApiResponse, ListParams } from '../domain/api';
import { useShell } from '../context';
import { TOASTS } from '../domain/messages';

export type ListState = {
  pagina: number;
  porPagina: number;
  orden?: string;
  dir?: 'asc' | 'desc';
  q: string;
  filters: Record<string, string>;
};

const stored = new Map<string, ListState>();

function readStored(key: string): ListState | undefined {
  if (stored.has(key)) return stored.get(key);
  try {
    const raw = sessionStorage.getItem(`mtpv:list:${key}`);
    return raw ? (JSON.parse(raw) as ListState) : undefined;
  } catch {
    return undefined;
  }
}

/** Forgets every remembered list state (logout; between tests). */
export function clearListStates(): void {
  stored.clear();
  try {
    for (let i = sessionStorage.length - 1; i >= 0; i--) {
      const k = sessionStorage.key(i);
      if (k?.startsWith('mtpv:list:')) sessionStorage.removeItem(k);
    }
  } catch {
    /* no storage */
  }
}

/** List state that survives going to a record and back (and a reload): page, filters, size, sort. */
export function useListState(key: string, initial: Partial<ListState> = {}) {
  const [state, setState] = useState<ListState>(
    () => readStored(key) ?? { pagina: 1, porPagina: 25, q: '', filters: {}, ...initial },
  );
  useEffect(() => {
    stored.set(key, state);
    try {
      sessionStorage.setItem(`mtpv:list:${key}`, JSON.stringify(state));
    } catch {
      /* private mode: memory only */
    }
  }, [key, state]);
  return [state, setState] as const;
}

export function listParams(s: ListState): ListParams {
  return { pagina: s.pagina, porPagina: s.porPagina, orden: s.orden, dir: s.dir, q: s.q.trim() || undefined, ...s.filters };
}

/** Loads one `listado<entidades>` page; the latest request wins. */
export function useList<T>(ac: string, params: ListParams) {
  const { api } = useShell();
  const [rows, setRows] = useState<T[]>([]);
  const [total, setTotal] = useState(0);
  // The whole answer: some lists add figures of all the filtered rows (documents' `totales`).
  const [answer, setAnswer] = useState<ApiResponse<T> | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const seq = useRef(0);
  const key = JSON.stringify(params);

  const reload = useCallback(async () => {
    const my = ++seq.current;
    setLoading(true);
    try {
      const res = await api.get<T>(ac, JSON.parse(key) as ListParams);
      if (my !== seq.current) return;
      if (res.RESULT === '0') {
        setRows(res.data ?? []);
        setTotal(res.total ?? res.data?.length ?? 0);
        setAnswer(res);
        setError(null);
      } else if (res.RESULT === '3') {
        setRows([]);
        setTotal(0);
        setAnswer(res);
        setError(null);
      } else setError(res.message ?? 'No se ha podido cargar el listado');
    } catch (e) {
      if (my === seq.current) setError(e instanceof ApiHttpError ? e.message : 'No se ha podido cargar el listado');
    } finally {
      if (my === seq.current) setLoading(false);
    }
  }, [api, ac, key]);

  useEffect(() => {
    void reload();
  }, [reload]);

  return { rows, total, answer, loading, error, reload };
}

/** Loads one record by id (`listado<entidades>&id=`); `id` undefined means a new record. */
export function useRecord<T>(ac: string, id: string | number | undefined) {
  const { api } = useShell();
  const [record, setRecord] = useState<T | null>(null);
  const [loading, setLoading] = useState(id !== undefined);
  const [notFound, setNotFound] = useState(false);

  const reload = useCallback(async () => {
    if (id === undefined) return;
    setLoading(true);
    try {
      const res = await api.get<T>(ac, { id });
      if (res.RESULT === '0' && res.data?.[0]) {
        setRecord(res.data[0]);
        setNotFound(false);
      } else setNotFound(true);
    } catch {
      setNotFound(true);
    } finally {
      setLoading(false);
    }
  }, [api, ac, id]);

  useEffect(() => {
    void reload();
  }, [reload]);

  return { record, setRecord, loading, notFound, reload };
}

export type ActionOutcome<T> = { ok: true; data: T[]; response: ApiResponse<T> } | { ok: false; error?: unknown; response?: ApiResponse<T> };

/**
 * Runs a state-changing action with the specification's toasts: success, error, and
 * 'Acción no posible' for RESULT 2. Field errors (HTTP 400) are returned for the form to show.
 */
export function useAction() {
  const { api, toast } = useShell();
  const [busy, setBusy] = useState(false);

  const run = useCallback(
    async <T,>(
      ac: string,
      body?: unknown,
      /** quiet: no success toast. associatedAsFailure: RESULT 2 shows the generic error (spec §8, configuration save). */
      opts: { quiet?: boolean; associatedAsFailure?: boolean } = {},
    ): Promise<ActionOutcome<T>> => {
      setBusy(true);
      try {
        const res = await api.post<T>(ac, body);
        if (res.RESULT === '0') {
          if (!opts.quiet) toast.success();
          return { ok: true, data: res.data ?? [], response: res };
        }
        if (res.RESULT === '2') {
          if (opts.associatedAsFailure) toast.error();
          // The server's own reason, when it is more than the specification's generic words (issue 26).
          else toast.associated(res.message && res.message !== TOASTS.associated.text ? res.message : undefined);
        } else toast.error(res.message);
        return { ok: false, response: res };
      } catch (e) {
        const body = e instanceof ApiHttpError ? e.body : undefined;
        if (!body?.errors) toast.error(body?.message);
        return { ok: false, error: e, response: body as ApiResponse<T> | undefined };
      } finally {
        setBusy(false);
      }
    },
    [api, toast],
  );

  return { run, busy };
}
