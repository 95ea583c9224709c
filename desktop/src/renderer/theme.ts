import { createTheme, type Theme } from '@mui/material/styles';
import type { ThemeMode } from './ui/prefs';

/** secondary §9: primary #307ABD in light mode, white in dark. */
export function buildTheme(mode: ThemeMode): Theme {
  const dark = mode === 'dark';
  return createTheme({
    palette: {
      mode,
      primary: dark ? { main: '#FFFFFF', contrastText: '#1E1E1E' } : { main: '#307ABD' },
      secondary: { main: dark ? '#90CAF9' : '#0B5C9E' },
      background: dark ? { default: '#121212', paper: '#1E1E1E' } : { default: '#F4F6F8' },
    },
    shape: { borderRadius: 8 },
    components: {
      MuiButton: { defaultProps: { disableElevation: true } },
    },
  });
}
