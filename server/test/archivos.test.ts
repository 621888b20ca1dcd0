import { describe, expect, it } from 'vitest';
import { MESSAGES } from 'shared/domain';
import { PNG_1X1, backends, expectCleanAnswer, multipart, useTestApp } from './helpers.ts';

describe.each(backends())('archivos ($name)', (backend) => {
  const t = useTestApp(backend);

  const upload = (name: string, type: string, content: Buffer, withCookie = t.cookie) => {
    const { payload, headers } = multipart('archivo', name, type, content);
    return t.app.inject({ method: 'POST', url: '/api/op.asp?ac=subirarchivo', payload, headers: { ...headers, cookie: withCookie } });
  };

  it('accepts a real PNG and serves it back with its type, a long cache and nosniff', async () => {
    const res = await upload('logo.png', 'image/png', PNG_1X1);
    const body = expectCleanAnswer(res);
    expect(body.RESULT).toBe('0');
    const [archivo] = body.data as { id: string; url: string; nombre: string; tipo: string }[];
    expect(archivo).toMatchObject({ nombre: 'logo.png', tipo: 'image/png', url: `/archivos/${archivo.id}` });

    const got = await t.app.inject({ method: 'GET', url: archivo.url });
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('image/png');
    expect(got.headers['x-content-type-options']).toBe('nosniff');
    expect(got.headers['cache-control']).toContain('max-age=31536000');
    expect(got.rawPayload.equals(PNG_1X1)).toBe(true);
  });

  it('types the file by its bytes, not by its name or declared type', async () => {
    const res = await upload('foto.bin', 'application/octet-stream', PNG_1X1);
    expect(res.json().data[0].tipo).toBe('image/png');
  });

  it('refuses a text file renamed .png', async () => {
    const res = await upload('falso.png', 'image/png', Buffer.from('<script>alert(1)</script>\n'));
    expect(res.statusCode).toBe(400);
    expect(expectCleanAnswer(res)).toEqual({ RESULT: '1', message: MESSAGES.invalidFile });
  });

  it('refuses an SVG (it can carry script)', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    expect((await upload('logo.svg', 'image/svg+xml', svg)).json().message).toBe(MESSAGES.invalidFile);
  });

  it('refuses a file over 2 MB', async () => {
    const big = Buffer.concat([PNG_1X1, Buffer.alloc(2 * 1024 * 1024)]);
    const res = await upload('grande.png', 'image/png', big);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ RESULT: '1', message: MESSAGES.fileTooLarge });
  });

  it('needs a session to upload, and the multipart field archivo', async () => {
    expect((await upload('logo.png', 'image/png', PNG_1X1, '')).statusCode).toBe(401);
    const { payload, headers } = multipart('otro', 'logo.png', 'image/png', PNG_1X1);
    const res = await t.app.inject({ method: 'POST', url: '/api/op.asp?ac=subirarchivo', payload, headers: { ...headers, cookie: t.cookie } });
    expect(res.statusCode).toBe(400);
    const json = await t.op('subirarchivo', { cookie: t.cookie, body: { archivo: 'x' } });
    expect(json.statusCode).toBe(400);
  });

  it('answers 404 for an unknown file', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/archivos/00000000-0000-4000-8000-000000000000' });
    expect(res.statusCode).toBe(404);
    expect(expectCleanAnswer(res).RESULT).toBe('3');
  });
});
