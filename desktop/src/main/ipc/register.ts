import type { z } from 'zod';
import type { IpcAnswer, InvokeChannel } from '../../preload/channels.js';
import { isAppUrl } from '../security.js';
import { SCHEMAS } from './schemas.js';

/** The part of Electron's `ipcMain` used here (a plain object in tests). */
export interface IpcMainLike {
  handle(
    channel: string,
    listener: (event: { senderFrame?: { url: string } | null }, arg: unknown) => unknown,
  ): void;
}

export type Handlers = {
  [C in InvokeChannel]: (arg: z.output<(typeof SCHEMAS)[C]>) => unknown;
};

/**
 * Registers every handler behind two checks: the call comes from the app's own page (not a
 * page that got navigated elsewhere), and its argument passes the channel's schema. A refused
 * call answers `{ ok: false }` and never reaches the handler.
 */
export function registerIpc(
  ipc: IpcMainLike,
  handlers: Handlers,
  onError: (channel: string, error: unknown) => void = () => undefined,
): void {
  for (const channel of Object.keys(SCHEMAS) as InvokeChannel[]) {
    const schema: z.ZodType = SCHEMAS[channel];
    const handler = handlers[channel] as (arg: unknown) => unknown;
    ipc.handle(channel, async (event, arg): Promise<IpcAnswer> => {
      const url = event.senderFrame?.url ?? '';
      if (!isAppUrl(url)) return { ok: false, error: 'ERR_FORBIDDEN_SENDER' };
      const parsed = schema.safeParse(arg);
      if (!parsed.success) {
        return {
          ok: false,
          error: 'ERR_VALIDATION',
          issues: parsed.error.issues.map((i) => `${i.path.join('.') || '(arg)'}: ${i.message}`),
        };
      }
      try {
        return { ok: true, value: await handler(parsed.data) };
      } catch (error) {
        onError(channel, error);
        return { ok: false, error: error instanceof Error ? error.message : 'ERR_INTERNAL' };
      }
    });
  }
}
