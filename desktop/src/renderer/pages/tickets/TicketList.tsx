import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { NARROW_BREAKPOINT } from '@atende/shared';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import type { Ticket } from '../../api/types';
import { VirtualList } from '../../components/VirtualList';
import { TICKET_ITEM_HEIGHT, TicketListItem } from './TicketListItem';
import { useTicketActions } from './useTicketActions';
import { useTicketList, type TicketListParams } from './useTicketList';

interface Props {
  params: TicketListParams;
  onCount?(count: number): void;
  onPeek(ticket: Ticket): void;
  viewportWidth: number;
  hidden?: boolean;
}

/** A virtualised, paged, live ticket list. */
export function TicketList({ params, onCount, onPeek, viewportWidth, hidden }: Props) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { ticketId } = useParams();
  const { tickets, loading, loadMore } = useTicketList(params);
  const { run } = useTicketActions();

  useEffect(() => onCount?.(tickets.length), [onCount, tickets.length]);

  if (hidden) return null;
  return (
    <Box sx={{ flex: 1, minHeight: 0, display: 'flex', flexDirection: 'column' }}>
      {loading && <LinearProgress aria-label={t('common.loading')} />}
      <VirtualList
        items={tickets}
        itemHeight={TICKET_ITEM_HEIGHT}
        getKey={(ticket) => ticket.id}
        onEndReached={loadMore}
        ariaLabel={t('menu.tickets')}
        empty={
          loading ? null : (
            <Box sx={{ p: 3, textAlign: 'center' }}>
              <Typography sx={{ fontWeight: 600 }}>{t('tickets.empty')}</Typography>
              <Typography variant="body2" color="text.secondary">
                {t('tickets.emptyHint')}
              </Typography>
            </Box>
          )
        }
        renderItem={(ticket) => (
          <TicketListItem
            ticket={ticket}
            selected={ticket.uuid === ticketId}
            viewportWidth={viewportWidth}
            compact={viewportWidth < NARROW_BREAKPOINT}
            onOpen={(tk) => navigate(`/tickets/${tk.uuid}`)}
            onAccept={(tk) => void run(tk, { action: 'accept' })}
            onFinish={(tk) => void run(tk, { action: 'finish' })}
            onReopen={(tk) => void run(tk, { action: 'reopen' })}
            onPeek={onPeek}
          />
        )}
      />
    </Box>
  );
}
