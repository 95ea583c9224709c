import type { ConnectionStatusName } from '@atende/shared';

export type SessionButton = 'qrcode' | 'tryAgain' | 'newQr' | 'disconnect' | 'connecting';
export type StatusIcon = 'connected' | 'qrcode' | 'pairing' | 'error' | 'timeout' | 'spinner';

/**
 * The session buttons of each status (admin §2): qrcode → QR code; DISCONNECTED → try again and
 * new QR; PAIRING and TIMEOUT (and CONNECTED, so a linked number can be unlinked) → disconnect;
 * OPENING → a disabled "connecting" button.
 */
export function sessionButtons(status: ConnectionStatusName): SessionButton[] {
  switch (status) {
    case 'qrcode':
      return ['qrcode'];
    case 'DISCONNECTED':
      return ['tryAgain', 'newQr'];
    case 'CONNECTED':
    case 'PAIRING':
    case 'TIMEOUT':
      return ['disconnect'];
    case 'OPENING':
      return ['connecting'];
  }
}

export function statusIcon(status: ConnectionStatusName): StatusIcon {
  switch (status) {
    case 'CONNECTED':
      return 'connected';
    case 'qrcode':
      return 'qrcode';
    case 'PAIRING':
      return 'pairing';
    case 'DISCONNECTED':
      return 'error';
    case 'TIMEOUT':
      return 'timeout';
    case 'OPENING':
      return 'spinner';
  }
}

/** Last update as dd/MM/yy HH:mm (admin §2), in local time. */
export function formatUpdatedAt(value: string | Date): string {
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return '';
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(d.getDate())}/${two(d.getMonth() + 1)}/${two(d.getFullYear() % 100)} ${two(
    d.getHours(),
  )}:${two(d.getMinutes())}`;
}
