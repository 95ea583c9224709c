import { describe, expect, it } from 'vitest';
import { PORT_EVENT_NAMES, PortEventEmitter, type WhatsAppProvider } from '../port.js';
import { LazyProvider } from './lazy.js';

/** A provider that records its calls (only what the stand-in is asked for is filled in). */
function fakeProvider(calls: string[]) {
  const events = new PortEventEmitter();
  let current: ReturnType<WhatsAppProvider['status']> = 'DISCONNECTED';
  const provider = {
    connectionId: '7',
    events,
    status: () => current,
    start: async () => {
      calls.push('start');
      current = 'CONNECTED';
    },
    stop: async () => void calls.push('stop'),
    sendText: async (_to: unknown, text: string) => {
      calls.push(`sendText ${text}`);
      return { id: 'm1', timestamp: 1 };
    },
  } as unknown as WhatsAppProvider;
  return { provider, events };
}

describe('LazyProvider (Baileys loaded on first use)', () => {
  it('loads nothing until a call needs it; stop before that loads nothing', async () => {
    let loads = 0;
    const calls: string[] = [];
    const lazy = new LazyProvider('7', async () => {
      loads++;
      return fakeProvider(calls).provider;
    });
    expect(lazy.status()).toBe('DISCONNECTED');
    await lazy.stop();
    expect(loads).toBe(0);
    await lazy.start();
    await lazy.sendText({ phone: '5511999990000' } as never, 'oi');
    await lazy.stop();
    expect(loads).toBe(1);
    expect(calls).toEqual(['start', 'sendText oi', 'stop']);
    expect(lazy.status()).toBe('CONNECTED');
  });

  it('passes every event of the real provider through, once', async () => {
    const real = fakeProvider([]);
    const lazy = new LazyProvider('7', async () => real.provider);
    const seen: string[] = [];
    for (const name of PORT_EVENT_NAMES) lazy.events.on(name, () => void seen.push(name));
    await lazy.start();
    for (const name of PORT_EVENT_NAMES) real.events.emit(name, {} as never);
    expect(seen).toEqual(PORT_EVENT_NAMES);
    expect(PORT_EVENT_NAMES).toHaveLength(7);
  });
});
