import { create } from 'zustand';
import { CONSTANTS, PALETTES, type ColorName } from 'shared/arranque';

const KEY_COLOR = 'mtpv:color';

function storedColor(): ColorName {
  const c = localStorage.getItem(KEY_COLOR);
  return c && c in PALETTES ? (c as ColorName) : (CONSTANTS.defaultColor as ColorName);
}

/** Spec §1: appearance is client-side only. */
type AppearanceState = {
  selectedColor: ColorName;
  logo: string;
  logoIco: string;
  docTitle: string;
  isLoading: boolean;
  setColor(color: ColorName): void;
  setBranding(b: { title: string; logo: string; favicon: string }): void;
  setLoading(v: boolean): void;
};

export const useAppearance = create<AppearanceState>((set) => ({
  selectedColor: storedColor(),
  logo: '/branding/manager-tpv.svg',
  logoIco: '/branding/favicon-tpv.svg',
  docTitle: 'Manager TPV',
  isLoading: true,
  setColor(selectedColor) {
    localStorage.setItem(KEY_COLOR, selectedColor);
    set({ selectedColor });
  },
  setBranding(b) {
    set({ docTitle: b.title, logo: b.logo, logoIco: b.favicon });
  },
  setLoading(isLoading) {
    set({ isLoading });
  },
}));
