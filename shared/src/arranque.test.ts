import { describe, expect, it, vi } from 'vitest';
import * as arranque from './arranque';
import * as shared from './index';

describe('shared/arranque', () => {
  it('exports only what shared exports, the same values', () => {
    const todo = new Map(Object.entries(shared));
    for (const [name, value] of Object.entries(arranque)) expect(todo.get(name), name).toBe(value);
  });

  it('keeps one ApiHttpError per page, whichever copy of the client throws it', async () => {
    const first = await import('./api/client');
    vi.resetModules();
    const second = await import('./api/client');
    expect(second).not.toBe(first);
    expect(second.ApiHttpError).toBe(first.ApiHttpError);
    expect(new second.ApiHttpError(500, { RESULT: '1' })).toBeInstanceOf(first.ApiHttpError);
  });
});
