import { describe, expect, it, vi } from 'vitest';
import { ApiHttpError, createApiClient } from './client';

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

describe('op.asp client', () => {
  it('answers RESULT 1 on a network failure', async () => {
    const api = createApiClient({ fetchImpl: vi.fn().mockRejectedValue(new TypeError('Failed to fetch')) });
    expect(await api.get('listadoconfiguraciones')).toEqual({ RESULT: '1' });
  });

  it('sends ac in the query and JSON in the body', async () => {
    const fetchImpl = vi.fn().mockResolvedValue(json(200, { RESULT: '0', data: [] }));
    const api = createApiClient({ fetchImpl });
    await api.post('identificar', { email: 'a@b.es', password: 'x' });
    const [url, init] = fetchImpl.mock.calls[0];
    expect(url).toBe('/api/op.asp?ac=identificar');
    expect(init.method).toBe('POST');
    expect(JSON.parse(init.body)).toEqual({ email: 'a@b.es', password: 'x' });
  });

  it('rejects HTTP errors with the server body and reports 401', async () => {
    const onUnauthorized = vi.fn();
    const api = createApiClient({ fetchImpl: vi.fn().mockResolvedValue(json(401, { RESULT: '1', message: 'Su sesión ha caducado' })), onUnauthorized });
    const err = await api.get('listadousuarios').catch((e) => e);
    expect(err).toBeInstanceOf(ApiHttpError);
    expect(err.body).toEqual({ RESULT: '1', message: 'Su sesión ha caducado' });
    expect(onUnauthorized).toHaveBeenCalledOnce();
  });

  it('counts empty answers as lost connection and resets on a real answer', async () => {
    const counts: number[] = [];
    const replies = [{}, {}, { RESULT: '0', data: [] }, {}];
    const api = createApiClient({ fetchImpl: vi.fn(async () => json(200, replies.shift())), onEmptyResponse: (n) => counts.push(n) });
    for (let i = 0; i < 4; i++) await api.get('listadoconfiguraciones');
    expect(counts).toEqual([1, 2, 1]);
  });

  it('uploads the file as archivo with text fields beside it (a mailed PDF and its document id)', async () => {
    const fetchImpl = vi.fn().mockResolvedValue(json(200, { RESULT: '0', data: [] }));
    const api = createApiClient({ fetchImpl });
    await api.upload('enviarcorreopedidocompra', new Blob(['%PDF'], { type: 'application/pdf' }), 'PC-1.pdf', { id: 5 });
    const [url, init] = fetchImpl.mock.calls[0];
    expect(url).toBe('/api/op.asp?ac=enviarcorreopedidocompra');
    const fd = init.body as FormData;
    expect(fd.get('id')).toBe('5');
    expect(fd.get('archivo')).toBeInstanceOf(Blob);
  });
});
