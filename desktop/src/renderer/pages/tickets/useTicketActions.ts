import {
  deselectAfter,
  ticketEndpoints,
  ticketUpdateFor,
  type TicketCommand,
} from '@atende/shared';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { api, ApiError } from '../../api';
import type { Ticket } from '../../api/types';
import { useSession } from '../../session/store';
import { useErrorToast } from '../../ui/useErrorToast';
import { otherOpenTicket } from './dialogs/newTicket';

/** Accept, Return, Finish, Reopen and Transfer through PUT /tickets/{id} (core §4). */
export function useTicketActions() {
  const userId = useSession((s) => s.user?.id);
  const navigate = useNavigate();
  const showError = useErrorToast();
  const { t } = useTranslation();

  const run = useCallback(
    async (ticket: Ticket, command: TicketCommand): Promise<Ticket | null> => {
      if (userId === undefined) return null;
      try {
        const update = ticketUpdateFor(ticket, command, userId);
        const saved = await api.call(ticketEndpoints.updateTicket, {
          params: { id: ticket.id },
          body: update,
        });
        // On close the ticket is deselected; on open it stays selected.
        if (deselectAfter(update) || command.action === 'transfer') navigate('/tickets');
        else navigate(`/tickets/${ticket.uuid}`);
        return saved ?? null;
      } catch (error) {
        // Reopening while the contact has another open ticket: offer that ticket instead.
        const other = error instanceof ApiError ? otherOpenTicket(error) : null;
        if (command.action === 'reopen' && other) {
          if (window.confirm(t('tickets.openOtherTicket', { id: other.ticketId })))
            navigate(`/tickets/${other.uuid}`);
          return null;
        }
        showError(error);
        return null;
      }
    },
    [navigate, showError, t, userId],
  );

  const remove = useCallback(
    async (ticket: Ticket) => {
      try {
        await api.call(ticketEndpoints.deleteTicket, { params: { id: ticket.id } });
        navigate('/tickets');
      } catch (error) {
        showError(error);
      }
    },
    [navigate, showError],
  );

  return { run, remove };
}
