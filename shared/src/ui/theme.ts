/**
 * Appearance colours (spec: selectedColor, default slate). Each is a 50-900 scale. Slate is also
 * every screen's grey: its 500, the muted text (descriptions, «Volver»), is darker than Tailwind's
 * #64748b so it reads at 4.5:1 (WCAG AA) on the page background (100) too; theme.test.ts checks
 * every text/background pair the screens use, in every palette.
 */
export const PALETTES = {
  slate: { 50: '#f8fafc', 100: '#f1f5f9', 200: '#e2e8f0', 300: '#cbd5e1', 500: '#58687c', 600: '#475569', 700: '#334155', 800: '#1e293b', 900: '#0f172a' },
  blue: { 50: '#eff6ff', 100: '#dbeafe', 200: '#bfdbfe', 300: '#93c5fd', 500: '#3b82f6', 600: '#2563eb', 700: '#1d4ed8', 800: '#1e40af', 900: '#1e3a8a' },
  emerald: { 50: '#ecfdf5', 100: '#d1fae5', 200: '#a7f3d0', 300: '#6ee7b7', 500: '#10b981', 600: '#059669', 700: '#047857', 800: '#065f46', 900: '#064e3b' },
  amber: { 50: '#fffbeb', 100: '#fef3c7', 200: '#fde68a', 300: '#fcd34d', 500: '#f59e0b', 600: '#d97706', 700: '#b45309', 800: '#92400e', 900: '#78350f' },
  rose: { 50: '#fff1f2', 100: '#ffe4e6', 200: '#fecdd3', 300: '#fda4af', 500: '#f43f5e', 600: '#e11d48', 700: '#be123c', 800: '#9f1239', 900: '#881337' },
  violet: { 50: '#f5f3ff', 100: '#ede9fe', 200: '#ddd6fe', 300: '#c4b5fd', 500: '#8b5cf6', 600: '#7c3aed', 700: '#6d28d9', 800: '#5b21b6', 900: '#4c1d95' },
} as const;

export type ColorName = keyof typeof PALETTES;
export const COLOR_LABELS: Record<ColorName, string> = {
  slate: 'Pizarra', blue: 'Azul', emerald: 'Esmeralda', amber: 'Ámbar', rose: 'Rosa', violet: 'Violeta',
};

export type Theme = {
  color: ColorName;
  primary: (typeof PALETTES)[ColorName];
  gray: (typeof PALETTES)['slate'];
  danger: string;
  success: string;
  radius: string;
  /** Spacing unit in px: space(4) = 16px (spec: default card padding 4). */
  space: (n: number) => string;
  phone: string;
};

export function makeTheme(color: ColorName = 'slate'): Theme {
  return {
    color,
    primary: PALETTES[color] ?? PALETTES.slate,
    gray: PALETTES.slate,
    danger: '#dc2626',
    // Text on white (4.5:1): green-700, not green-600 (3.3:1).
    success: '#15803d',
    radius: '8px',
    space: (n) => `${n * 4}px`,
    phone: '@media (max-width: 760px)',
  };
}

// Every styled component reads this Theme from props.theme, typed (styled-components' documented way).
declare module 'styled-components' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  export interface DefaultTheme extends Theme {}
}
