import { deselectAfter, ticketUpdateFor, type TicketCommand } from '@atende/shared';
import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { api } from '../../api';
import type { Ticket } from '../../api/types';
import { useSession } from '../../session/store';
import { useErrorToast } from '../../ui/useErrorToast';

/** Accept, Return, Finish, Reopen and Transfer through PUT /tickets/{id} (core §4). */
export function useTicketActions() {
  const userId = useSession((s) => s.user?.id);
  const navigate = useNavigate();
  const showError = useErrorToast();

  const run = useCallback(
    async (ticket: Ticket, command: TicketCommand): Promise<Ticket | null> => {
      if (userId === undefined) return null;
      try {
        const update = ticketUpdateFor(ticket, command, userId);
        const saved = await api.put<Ticket>(`/tickets/${ticket.id}`, update);
        // On close the ticket is deselected; on open it stays selected.
        if (deselectAfter(update) || command.action === 'transfer') navigate('/tickets');
        else navigate(`/tickets/${ticket.uuid}`);
        return saved ?? null;
      } catch (error) {
        showError(error);
        return null;
      }
    },
    [navigate, showError, userId],
  );

  const remove = useCallback(
    async (ticket: Ticket) => {
      try {
        await api.delete(`/tickets/${ticket.id}`);
        navigate('/tickets');
      } catch (error) {
        showError(error);
      }
    },
    [navigate, showError],
  );

  return { run, remove };
}
