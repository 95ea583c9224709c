import { CONNECTION_STATUSES } from '@atende/shared';
import { describe, expect, it } from 'vitest';
import { formatUpdatedAt, sessionButtons, statusIcon } from './status';

describe('connection status → session buttons (admin §2)', () => {
  it.each([
    ['qrcode', ['qrcode']],
    ['DISCONNECTED', ['tryAgain', 'newQr']],
    ['CONNECTED', ['disconnect']],
    ['PAIRING', ['disconnect']],
    ['TIMEOUT', ['disconnect']],
    ['OPENING', ['connecting']],
  ] as const)('%s shows %j', (status, buttons) => {
    expect(sessionButtons(status)).toEqual(buttons);
  });

  it('gives DISCONNECTED an error icon, TIMEOUT a timeout icon and OPENING a spinner', () => {
    expect(statusIcon('DISCONNECTED')).toBe('error');
    expect(statusIcon('TIMEOUT')).toBe('timeout');
    expect(statusIcon('OPENING')).toBe('spinner');
    expect(statusIcon('CONNECTED')).toBe('connected');
    expect(CONNECTION_STATUSES.map(statusIcon)).not.toContain(undefined);
  });

  it('formats the last update as dd/MM/yy HH:mm', () => {
    expect(formatUpdatedAt(new Date(2024, 0, 5, 9, 7))).toBe('05/01/24 09:07');
    expect(formatUpdatedAt('not a date')).toBe('');
  });
});
