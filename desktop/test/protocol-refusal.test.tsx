// The socket refused for another protocol version (ERR_PROTOCOL_VERSION, issue 12 item 3): the
// app stops retrying and asks the user, in their language, to update it, for as long as it runs.
import { act, screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import { afterEach, describe, expect, it } from 'vitest';
import type { RealtimeConnection } from '../src/renderer/platform';
import { useRealtime } from '../src/renderer/session/useRealtime';
import { allPlanFlags, makeUser } from './fixtures';
import { installFakePlatform, renderApp } from './render';

/** A signed-in app whose socket handshake the test can refuse. */
function signedInWithRefusableSocket() {
  localStorage.setItem('token', 'stored');
  const user = makeUser({ profile: 'admin' });
  const { platform } = installFakePlatform((req) => {
    if (req.path === '/auth/refresh_token') return { status: 200, data: { token: 't', user } };
    if (req.path.startsWith('/companies/listPlan')) {
      return { status: 200, data: { plan: allPlanFlags } };
    }
    return undefined;
  });
  const errorHandlers = new Set<(error: { message: string }) => void>();
  let reconnects = 0;
  const connect = platform.connectRealtime.bind(platform);
  platform.connectRealtime = (options) => {
    const inner = connect(options);
    const connection: RealtimeConnection = {
      get connected() {
        return inner.connected;
      },
      on: (event, handler) => inner.on(event, handler),
      emit: (event, ...args) => inner.emit(event, ...args),
      onStatus: (handler) => inner.onStatus(handler),
      onConnectError: (handler) => {
        errorHandlers.add(handler);
        return () => errorHandlers.delete(handler);
      },
      reconnect: () => void reconnects++,
      close: () => inner.close(),
    };
    return connection;
  };
  const refuse = (message: string) =>
    act(() => {
      for (const handler of errorHandlers) handler({ message });
    });
  return { refuse, reconnects: () => reconnects, listening: () => errorHandlers.size };
}

afterEach(() => useRealtime.setState({ protocolMismatch: false }));

describe('a server speaking another socket protocol', () => {
  it('shows a lasting message asking to update the app, in pt-BR, en and es', async () => {
    const socket = signedInWithRefusableSocket();
    await renderApp('/tickets');
    await waitFor(() => expect(socket.listening()).toBeGreaterThan(0), { timeout: 15_000 });
    expect(screen.queryByTestId('protocol-banner')).toBeNull();

    await socket.refuse('ERR_PROTOCOL_VERSION');
    const banner = await screen.findByTestId('protocol-banner');
    expect(banner.textContent).toBe(
      'Esta versão do aplicativo não é compatível com o servidor. Atualize o aplicativo.',
    );
    expect(socket.reconnects()).toBe(0);

    await act(() => i18next.changeLanguage('en'));
    expect(screen.getByTestId('protocol-banner').textContent).toBe(
      'This version of the app is not compatible with the server. Update the app.',
    );
    await act(() => i18next.changeLanguage('es'));
    expect(screen.getByTestId('protocol-banner').textContent).toBe(
      'Esta versión de la aplicación no es compatible con el servidor. Actualice la aplicación.',
    );
    await act(() => i18next.changeLanguage('pt-BR'));
  });

  it('another refusal (an expired token) shows no such message and reconnects', async () => {
    const socket = signedInWithRefusableSocket();
    await renderApp('/tickets');
    await waitFor(() => expect(socket.listening()).toBeGreaterThan(0), { timeout: 15_000 });
    await socket.refuse('ERR_SESSION_EXPIRED');
    await waitFor(() => expect(socket.reconnects()).toBe(1));
    expect(screen.queryByTestId('protocol-banner')).toBeNull();
  });
});
