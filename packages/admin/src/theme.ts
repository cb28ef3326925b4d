/**
 * The look: react-admin's default theme with a Persian font (Vazirmatn, shipped from npm so screenshots and
 * every staff machine render the same glyphs), in the direction of the language. Right to left needs both the
 * theme's `direction` and an emotion cache whose stylis plugin flips the CSS (margins, paddings, borders).
 */
import createCache, { type EmotionCache } from '@emotion/cache';
import rtlPlugin from '@mui/stylis-plugin-rtl';
import { defaultTheme, type RaThemeOptions } from 'react-admin';
import { prefixer } from 'stylis';

const fontFamily = ['Vazirmatn', 'Tahoma', 'Arial', 'sans-serif'].join(',');

export function themeFor(direction: 'rtl' | 'ltr'): RaThemeOptions {
  return {
    ...defaultTheme,
    direction,
    typography: { ...defaultTheme.typography, fontFamily },
    components: {
      ...defaultTheme.components,
      // Cells keep the table's direction (numbers and ids read left to right inside them by themselves).
      MuiTableCell: { styleOverrides: { root: { textAlign: 'start' } } },
    },
  };
}

export const emotionCaches: Record<'rtl' | 'ltr', EmotionCache> = {
  rtl: createCache({ key: 'muirtl', stylisPlugins: [prefixer, rtlPlugin] }),
  ltr: createCache({ key: 'muiltr', stylisPlugins: [prefixer] }),
};
