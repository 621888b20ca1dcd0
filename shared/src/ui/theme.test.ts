import { describe, expect, it } from 'vitest';
import { makeTheme, PALETTES, type ColorName } from './theme';

/** WCAG 2 contrast ratio of two #rrggbb colours. */
function contrast(a: string, b: string): number {
  const luminance = (hex: string) => {
    const [r, g, bl] = [1, 3, 5].map((i) => {
      const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

const WHITE = '#ffffff';
/** The page background (shell/index.html) is the grey 100. */
const PAGE = PALETTES.slate[100];

describe('theme contrast (WCAG AA, 4.5:1 for text), every palette', () => {
  it('computes contrast like WCAG', () => {
    expect(contrast('#000000', WHITE)).toBeCloseTo(21, 5);
    expect(contrast('#64748b', '#f1f5f9')).toBeCloseTo(4.34, 2);
  });

  for (const color of Object.keys(PALETTES) as ColorName[]) {
    it(color, () => {
      const t = makeTheme(color);
      const pairs: [string, string, string][] = [
        // [what, text, background]
        ['muted text on the page', t.gray[500], PAGE],
        ['muted text on a card', t.gray[500], WHITE],
        ['muted text on a table header', t.gray[500], t.gray[50]],
        ['table header text', t.gray[600], t.gray[50]],
        ['secondary text on the page', t.gray[600], PAGE],
        ['body text', t.gray[900], PAGE],
        ['primary button', WHITE, t.primary[700]],
        ['primary button hovered', WHITE, t.primary[800]],
        ['header bar', WHITE, t.primary[800]],
        ['links', t.primary[700], WHITE],
        ['active menu entry', t.primary[800], WHITE],
        ['active side-list entry', t.primary[900], t.primary[100]],
        ['home quick-link icon', t.primary[800], t.primary[100]],
        ['danger text', t.danger, WHITE],
        ['success text', t.success, WHITE],
      ];
      const failing = pairs.filter(([, fg, bg]) => contrast(fg, bg) < 4.5).map(([what, fg, bg]) => `${what}: ${fg} on ${bg} ${contrast(fg, bg).toFixed(2)}`);
      expect(failing).toEqual([]);
    });
  }
});
