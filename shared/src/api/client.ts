import { API_BASE, OP_PATH, type ApiResponse, type ListParams } from '../domain/api';

/** The op.asp client the shell hands to every section. */
export type ApiClient = {
  get<T = unknown>(ac: string, params?: ListParams): Promise<ApiResponse<T>>;
  post<T = unknown>(ac: string, body?: unknown, params?: ListParams): Promise<ApiResponse<T>>;
  /**
   * Multipart client (spec: "a separate multipart client pointing at the site root"): the file goes
   * as `archivo`; `fields` travel beside it as text parts (the document's `id` of a mailed PDF).
   */
  upload<T = unknown>(ac: string, file: Blob, fileName?: string, fields?: Record<string, string | number>): Promise<ApiResponse<T>>;
};

export type ApiClientOptions = {
  /** Site root for the multipart client and the base of /api. Default ''. */
  root?: string;
  /** A 200 with an empty object: lost connection (spec §8). */
  onEmptyResponse?: (count: number) => void;
  /** Any non-empty answer resets the lost-connection counter. */
  onResponse?: () => void;
  /** HTTP 401: the session is gone. */
  onUnauthorized?: () => void;
  /** HTTP 403 refused by the user's role (`derecho` in the body): the role may have changed; read the session again. */
  onForbidden?: (body: ApiResponse) => void;
  fetchImpl?: typeof fetch;
};

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiResponse,
  ) {
    super(body.message ?? `HTTP ${status}`);
  }
}

/**
 * Thrown (rejected) for HTTP errors: carries the server's body, as the spec asks. One class per page,
 * like `ShellContext`: the shell's client comes from its own copy (`shared/arranque`, bundled into the
 * first paint) and a remote may run a newer copy of `shared`; `instanceof` works in all of them.
 */
const ERROR_KEY = Symbol.for('manager-tpv.api-http-error');
const registry = globalThis as unknown as Record<symbol, typeof HttpError | undefined>;
export const ApiHttpError: typeof HttpError = registry[ERROR_KEY] ?? HttpError;
registry[ERROR_KEY] = ApiHttpError;
export type ApiHttpError = HttpError;

const NETWORK_FAILURE: ApiResponse = { RESULT: '1' };

function query(ac: string, params?: ListParams): string {
  const sp = new URLSearchParams({ ac });
  for (const [k, v] of Object.entries(params ?? {})) if (v !== undefined && v !== '') sp.set(k, String(v));
  return sp.toString();
}

export function createApiClient(options: ApiClientOptions = {}): ApiClient {
  const root = options.root ?? '';
  const doFetch = options.fetchImpl ?? ((...a: Parameters<typeof fetch>) => fetch(...a));
  let empties = 0;

  async function send<T>(url: string, init: RequestInit): Promise<ApiResponse<T>> {
    let res: Response;
    try {
      // No default timeout (spec §9): long restores and imports must finish.
      res = await doFetch(url, { credentials: 'same-origin', ...init });
    } catch {
      return NETWORK_FAILURE as ApiResponse<T>;
    }
    let body: unknown = null;
    const text = await res.text().catch(() => '');
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = null;
    }
    if (!res.ok) {
      if (res.status === 401) options.onUnauthorized?.();
      if (res.status === 403 && body && typeof body === 'object' && 'derecho' in body) options.onForbidden?.(body as ApiResponse);
      throw new ApiHttpError(res.status, (body as ApiResponse) ?? { RESULT: '1' });
    }
    if (body && typeof body === 'object' && Object.keys(body).length === 0) {
      empties += 1;
      options.onEmptyResponse?.(empties);
      return NETWORK_FAILURE as ApiResponse<T>;
    }
    empties = 0;
    options.onResponse?.();
    if (!body || typeof body !== 'object' || !('RESULT' in body)) return NETWORK_FAILURE as ApiResponse<T>;
    return body as ApiResponse<T>;
  }

  return {
    get: (ac, params) => send(`${root}${API_BASE}${OP_PATH}?${query(ac, params)}`, { method: 'GET' }),
    post: (ac, body, params) =>
      send(`${root}${API_BASE}${OP_PATH}?${query(ac, params)}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body ?? {}),
      }),
    upload: (ac, file, fileName, fields) => {
      const fd = new FormData();
      // Text fields first: a streaming parser on the server knows them before the file arrives.
      for (const [k, v] of Object.entries(fields ?? {})) fd.append(k, String(v));
      fd.append('archivo', file, fileName ?? (file instanceof File ? file.name : 'archivo'));
      return send(`${root}/api/op.asp?${query(ac)}`, { method: 'POST', body: fd });
    },
  };
}
