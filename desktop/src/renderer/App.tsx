import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { useEffect, useMemo } from 'react';
import { BrowserRouter, HashRouter } from 'react-router-dom';
import { getPlatform } from './platform';
import { AppRoutes } from './routes/AppRoutes';
import { useSession } from './session/store';
import { buildTheme } from './theme';
import { usePrefs } from './ui/prefs';
import { Toaster } from './ui/Toaster';

export function App() {
  const mode = usePrefs((s) => s.theme);
  const theme = useMemo(() => buildTheme(mode), [mode]);
  const bootstrap = useSession((s) => s.bootstrap);
  useEffect(() => void bootstrap(), [bootstrap]);
  // The desktop app loads from a file, where only hash URLs survive a reload.
  const Router = getPlatform().kind === 'desktop' ? HashRouter : BrowserRouter;
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <Router>
        <AppRoutes />
      </Router>
      <Toaster />
    </ThemeProvider>
  );
}
