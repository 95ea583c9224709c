import { useNavigate } from 'react-router-dom';
import type { Message, Ticket } from '../api/types';
import { getPlatform } from '../platform';
import { useCompanyEvent } from '../session/useRealtime';
import { usePrefs } from '../ui/prefs';
import { useViewer } from '../pages/tickets/useTicketList';
import { shouldNotify } from './policy';

/** A short chime through Web Audio, at the stored volume (0 is silent). */
export function chime(volume: number): void {
  if (volume <= 0 || typeof AudioContext === 'undefined') return;
  try {
    const context = new AudioContext();
    const oscillator = context.createOscillator();
    const gain = context.createGain();
    oscillator.frequency.value = 880;
    gain.gain.setValueAtTime(volume * 0.3, context.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.0001, context.currentTime + 0.4);
    oscillator.connect(gain).connect(context.destination);
    oscillator.start();
    oscillator.stop(context.currentTime + 0.4);
    oscillator.onended = () => void context.close();
  } catch {
    // Autoplay rules can refuse sound before the first user gesture; the notification remains.
  }
}

/** Browser notification and sound for new customer messages; a click opens the ticket. */
export function useMessageNotifications(): void {
  const viewer = useViewer();
  const navigate = useNavigate();
  useCompanyEvent('appMessage', (payload) => {
    const data = payload as { action: string; message?: Message; ticket?: Ticket };
    if (data.action !== 'create' || !data.message || !data.ticket || !viewer) return;
    const open = /^\/tickets\/([^/]+)/.exec(window.location.pathname)?.[1];
    const context = { focused: document.hasFocus(), openTicketUuid: open };
    if (!shouldNotify(data.message, data.ticket, viewer, context)) return;
    const ticket = data.ticket;
    getPlatform().notify({
      title: ticket.contact?.name ?? '',
      body: data.message.body,
      tag: ticket.uuid,
      icon: ticket.contact?.profilePicUrl,
      onClick: () => navigate(`/tickets/${ticket.uuid}`),
    });
    chime(usePrefs.getState().volume);
  });
}
