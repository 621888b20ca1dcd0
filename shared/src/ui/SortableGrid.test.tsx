import { describe, expect, it } from 'vitest';
import { moverEnLista } from './SortableGrid';

describe('moverEnLista', () => {
  it('moves one item and keeps the others in order; out of range goes to the end; nothing to move answers the same list', () => {
    const l = ['a', 'b', 'c', 'd'];
    expect(moverEnLista(l, 0, 2)).toEqual(['b', 'c', 'a', 'd']);
    expect(moverEnLista(l, 3, 0)).toEqual(['d', 'a', 'b', 'c']);
    expect(moverEnLista(l, 1, 99)).toEqual(['a', 'c', 'd', 'b']);
    expect(moverEnLista(l, 2, 2)).toBe(l);
    expect(moverEnLista(l, 7, 0)).toBe(l);
    expect(l).toEqual(['a', 'b', 'c', 'd']);
  });
});
