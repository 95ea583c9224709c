import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { render } from '@testing-library/react';
import { vi } from 'vitest';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { initI18n } from '../src/renderer/i18n';
import type { HttpRequest, Platform, RealtimeConnection } from '../src/renderer/platform';
import { setPlatform } from '../src/renderer/platform';
import { AppRoutes } from '../src/renderer/routes/AppRoutes';
import { useSession } from '../src/renderer/session/store';
import { buildTheme } from '../src/renderer/theme';
import { Toaster } from '../src/renderer/ui/Toaster';
import { useToasts } from '../src/renderer/ui/toast';

export type Responder = (req: HttpRequest) => { status: number; data?: unknown } | undefined;

/** A platform whose HTTP answers come from `respond`; its socket only delivers `serverEmits`. */
export function installFakePlatform(respond: Responder) {
  const requests: HttpRequest[] = [];
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const connection: RealtimeConnection = {
    connected: false,
    on: (event, handler) => {
      const set = listeners.get(event) ?? new Set();
      set.add(handler);
      listeners.set(event, set);
      return () => set.delete(handler);
    },
    emit: () => undefined,
    onStatus: () => () => undefined,
    onConnectError: () => () => undefined,
    reconnect: () => undefined,
    close: () => undefined,
  };
  const platform: Platform = {
    kind: 'web',
    request: vi.fn(async (req: HttpRequest) => {
      // The uploaded-logo lookup every public page makes is not one of the calls tests count.
      if (!req.path.startsWith('/public/logos')) requests.push(req);
      const answer = respond(req) ?? { status: 404, data: { error: 'ERR_NOT_FOUND' } };
      return { status: answer.status, data: answer.data };
    }) as Platform['request'],
    connectRealtime: () => connection,
    resolveUrl: (path) => path,
    notify: () => false,
  };
  setPlatform(platform);
  /** Delivers a socket event (`company-{id}-{name}`) to the app's listeners. */
  const serverEmits = (event: string, payload: unknown) => {
    for (const handler of listeners.get(event) ?? []) handler(payload);
  };
  return { platform, requests, serverEmits };
}

function LocationProbe() {
  const location = useLocation();
  return <div data-testid="location">{location.pathname}</div>;
}

/** Renders the app's routes at `path`, with the theme, toasts and a location probe. */
export async function renderApp(path: string) {
  await initI18n('pt-BR');
  useSession.setState({ status: 'loading', token: null, user: null, plan: null });
  useToasts.setState({ queue: [] });
  await useSession.getState().bootstrap();
  return render(
    <ThemeProvider theme={buildTheme('light')}>
      <CssBaseline />
      <MemoryRouter initialEntries={[path]}>
        <AppRoutes />
        <Routes>
          <Route path="*" element={<LocationProbe />} />
        </Routes>
      </MemoryRouter>
      <Toaster />
    </ThemeProvider>,
  );
}
