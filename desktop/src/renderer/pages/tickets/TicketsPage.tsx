import Forum from '@mui/icons-material/Forum';
import QuestionAnswer from '@mui/icons-material/QuestionAnswer';
import BottomNavigation from '@mui/material/BottomNavigation';
import BottomNavigationAction from '@mui/material/BottomNavigationAction';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { NARROW_BREAKPOINT, ticketsLayout } from '@atende/shared';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import type { Ticket } from '../../api/types';
import { PeekDialog } from './PeekDialog';
import { useTicketsUi } from './store';
import { TicketsManager } from './TicketsManager';
import { TicketView } from './TicketView';

/**
 * The list column never gets narrower than this: the open sub-tabs with their badges, the add
 * button and the show-all switch need it to stay whole (issue 12, at 1000 and 1366 px).
 */
export const TICKET_LIST_MIN_WIDTH = 380;

function useViewportWidth(): number {
  const [width, setWidth] = useState(() => window.innerWidth);
  useEffect(() => {
    const onResize = () => setWidth(window.innerWidth);
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return width;
}

function Welcome() {
  const { t } = useTranslation();
  return (
    <Box sx={{ height: '100%', display: 'grid', placeItems: 'center', p: 4, textAlign: 'center' }}>
      <Box>
        <Forum sx={{ fontSize: 96, color: 'primary.main', opacity: 0.4 }} />
        <Typography color="text.secondary">{t('tickets.welcome')}</Typography>
      </Box>
    </Box>
  );
}

/**
 * /tickets and /tickets/{uuid}: wide screens show the list (a third) beside the ticket;
 * narrow screens switch between them with two bottom tabs (core §2).
 */
export default function TicketsPage() {
  const { t } = useTranslation();
  const { ticketId } = useParams();
  const navigate = useNavigate();
  const width = useViewportWidth();
  const narrow =
    useMediaQuery(`(max-width:${NARROW_BREAKPOINT - 0.05}px)`) || ticketsLayout(width) === 'narrow';
  const { mobileTab, setMobileTab } = useTicketsUi();
  const [peek, setPeek] = useState<Ticket | null>(null);

  useEffect(() => setMobileTab(ticketId ? 'ticket' : 'tickets'), [ticketId, setMobileTab]);

  const list = <TicketsManager viewportWidth={width} onPeek={setPeek} />;
  const view = ticketId ? (
    <TicketView
      key={ticketId}
      uuid={ticketId}
      onBack={narrow ? () => navigate('/tickets') : undefined}
    />
  ) : (
    <Welcome />
  );

  return (
    <Box sx={{ height: '100%', display: 'flex', flexDirection: 'column' }}>
      {narrow ? (
        <>
          <Box sx={{ flex: 1, minHeight: 0 }}>{mobileTab === 'ticket' ? view : list}</Box>
          <BottomNavigation showLabels value={mobileTab} onChange={(_, v) => setMobileTab(v)}>
            <BottomNavigationAction
              value="ticket"
              label={t('tickets.tabTicket')}
              icon={<QuestionAnswer />}
            />
            <BottomNavigationAction
              value="tickets"
              label={t('tickets.tabTickets')}
              icon={<Forum />}
            />
          </BottomNavigation>
        </>
      ) : (
        <Box sx={{ flex: 1, minHeight: 0, display: 'flex' }}>
          <Box sx={{ width: '33.333%', minWidth: TICKET_LIST_MIN_WIDTH, height: '100%' }}>
            {list}
          </Box>
          <Box sx={{ flex: 1, minWidth: 0, height: '100%' }}>{view}</Box>
        </Box>
      )}
      <PeekDialog ticket={peek} onClose={() => setPeek(null)} />
    </Box>
  );
}
