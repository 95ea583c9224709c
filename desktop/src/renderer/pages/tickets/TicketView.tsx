import ArrowBack from '@mui/icons-material/ArrowBack';
import MoreVert from '@mui/icons-material/MoreVert';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import Drawer from '@mui/material/Drawer';
import useMediaQuery from '@mui/material/useMediaQuery';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import {
  can,
  canOpenTicket,
  formatPhoneDisplay,
  messageEndpoints,
  NARROW_BREAKPOINT,
  ticketEndpoints,
  WIDE_BREAKPOINT,
} from '@atende/shared';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { api } from '../../api';
import type { Message, Ticket } from '../../api/types';
import { useSession } from '../../session/store';
import { useCompanyEvent } from '../../session/useRealtime';
import { toast } from '../../ui/toast';
import { useErrorToast } from '../../ui/useErrorToast';
import { lazyDialog } from '../../routes/lazyDialog';
import { ContactDrawer } from './ContactDrawer';
import { EditMessageDialog } from './EditMessageDialog';
import { MessageInput } from './MessageInput';
import { TagEditor } from './TagEditor';
import { MessagesList } from './MessagesList';
import { useMessages } from './useMessages';
import { useTicketActions } from './useTicketActions';
import { useViewer } from './useTicketList';

// Their form code loads when they first open (routes/lazyDialog.tsx).
const TransferDialog = lazyDialog(
  () => import('./dialogs/TransferDialog').then((m) => m.TransferDialog),
  (p) => p.open,
);
const ScheduleDialog = lazyDialog(
  () => import('../schedules/ScheduleDialog').then((m) => m.ScheduleDialog),
  (p) => p.open,
);

/** Loads the ticket of the route (GET /tickets/u/{uuid}) and checks that the user may open it. */
function useTicket(uuid: string) {
  const viewer = useViewer();
  const navigate = useNavigate();
  const { t } = useTranslation();
  const showError = useErrorToast();
  const [ticket, setTicket] = useState<Ticket | null>(null);
  // Read through a ref: a 403 refreshes the session, which renews the user object, and the
  // ticket must not be reloaded (and refused again) for that.
  const viewerRef = useRef(viewer);
  viewerRef.current = viewer;

  useEffect(() => {
    let cancelled = false;
    setTicket(null);
    api
      .call(ticketEndpoints.showTicketByUuid, { params: { uuid } })
      .then((loaded) => {
        const current = viewerRef.current;
        if (cancelled || !current) return;
        if (!canOpenTicket(current, loaded)) {
          toast.error(t('tickets.accessDenied'));
          navigate('/tickets', { replace: true });
          return;
        }
        setTicket(loaded);
      })
      .catch((error: unknown) => {
        if (cancelled) return;
        showError(error);
        navigate('/tickets', { replace: true });
      });
    return () => {
      cancelled = true;
    };
  }, [uuid, navigate, showError, t]);

  useCompanyEvent('ticket', (payload) => {
    const data = payload as { action: string; ticket?: Ticket; ticketId?: number };
    if (data.action === 'update' && data.ticket && data.ticket.uuid === uuid) {
      setTicket((current) => (current ? { ...current, ...data.ticket } : current));
    } else if (data.action === 'delete' && ticket && data.ticketId === ticket.id) {
      navigate('/tickets');
    }
  });
  useCompanyEvent('contact', (payload) => {
    const data = payload as { action: string; contact?: Ticket['contact'] };
    if (data.contact) {
      setTicket((current) =>
        current && current.contactId === data.contact!.id
          ? { ...current, contact: { ...current.contact, ...data.contact } }
          : current,
      );
    }
  });

  return ticket;
}

export function TicketView({ uuid, onBack }: { uuid: string; onBack?(): void }) {
  const { t } = useTranslation();
  const profile = useSession((s) => s.user?.profile);
  const ticket = useTicket(uuid);
  const { run, remove } = useTicketActions();
  const { messages, loading, loadOlder } = useMessages(ticket?.id);
  const [replyTo, setReplyTo] = useState<Message | null>(null);
  const [menu, setMenu] = useState<HTMLElement | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [transferring, setTransferring] = useState(false);
  const [scheduling, setScheduling] = useState(false);
  const useSchedules = useSession((s) => s.plan?.useSchedules === true);
  const [editing, setEditing] = useState<Message | null>(null);
  const [drawer, setDrawer] = useState(false);
  const showError = useErrorToast();
  // Under 1200 px the contact drawer covers the thread instead of squeezing it; under 600 px
  // 'Devolver' moves into the options menu so the header keeps its buttons in one row.
  const overlayDrawer = useMediaQuery(`(max-width:${WIDE_BREAKPOINT - 0.05}px)`);
  const compact = useMediaQuery(`(max-width:${NARROW_BREAKPOINT - 0.05}px)`);

  if (!ticket) {
    return (
      <Box sx={{ display: 'grid', placeItems: 'center', height: '100%' }}>
        <CircularProgress />
      </Box>
    );
  }

  const deleteMessage = async (message: Message) => {
    try {
      await api.call(messageEndpoints.deleteMessage, { params: { id: message.id } });
    } catch (error) {
      showError(error);
    }
  };

  return (
    <Box sx={{ display: 'flex', height: '100%' }}>
      <Box sx={{ display: 'flex', flexDirection: 'column', height: '100%', flex: 1, minWidth: 0 }}>
        <Paper
          square
          elevation={1}
          sx={{ display: 'flex', alignItems: 'center', gap: 1.5, px: 2, py: 1 }}
        >
          {onBack && (
            <IconButton aria-label={t('common.back')} onClick={onBack} edge="start">
              <ArrowBack />
            </IconButton>
          )}
          <Box
            component="button"
            type="button"
            aria-label={t('ticketView.contactInfo')}
            onClick={() => setDrawer((open) => !open)}
            sx={{
              display: 'flex',
              alignItems: 'center',
              gap: 1.5,
              flex: 1,
              minWidth: 0,
              border: 0,
              p: 0,
              bgcolor: 'transparent',
              color: 'inherit',
              textAlign: 'left',
              cursor: 'pointer',
            }}
          >
            <Avatar src={ticket.contact?.profilePicUrl} alt={ticket.contact?.name} />
            <Box sx={{ flex: 1, minWidth: 0 }}>
              <Typography noWrap sx={{ fontWeight: 600 }} data-testid="ticket-contact-name">
                {ticket.contact?.name} #{ticket.id}
              </Typography>
              <Typography variant="caption" color="text.secondary" noWrap component="p">
                {formatPhoneDisplay(ticket.contact?.number ?? '')}
                {ticket.user?.name ? ` · ${ticket.user.name}` : ''}
              </Typography>
            </Box>
          </Box>
          {ticket.status === 'pending' && (
            <Button
              variant="contained"
              color="success"
              onClick={() => void run(ticket, { action: 'accept' })}
            >
              {t('tickets.accept')}
            </Button>
          )}
          {ticket.status === 'open' && (
            <>
              {!compact && (
                <Button onClick={() => void run(ticket, { action: 'return' })}>
                  {t('tickets.return')}
                </Button>
              )}
              <Button variant="contained" onClick={() => void run(ticket, { action: 'finish' })}>
                {t('tickets.resolve')}
              </Button>
            </>
          )}
          {ticket.status === 'closed' && (
            <Button variant="contained" onClick={() => void run(ticket, { action: 'reopen' })}>
              {t('tickets.reopen')}
            </Button>
          )}
          <IconButton
            aria-label={t('ticketView.options')}
            onClick={(e) => setMenu(e.currentTarget)}
          >
            <MoreVert />
          </IconButton>
          {/* Never empty: the contact's data is always there (issue 13). */}
          <Menu anchorEl={menu} open={menu !== null} onClose={() => setMenu(null)}>
            <MenuItem
              onClick={() => {
                setMenu(null);
                setDrawer(true);
              }}
            >
              {t('ticketView.contactInfo')}
            </MenuItem>
            {compact && ticket.status === 'open' && (
              <MenuItem
                onClick={() => {
                  setMenu(null);
                  void run(ticket, { action: 'return' });
                }}
              >
                {t('tickets.return')}
              </MenuItem>
            )}
            {ticket.status !== 'closed' && (
              <MenuItem
                onClick={() => {
                  setMenu(null);
                  setTransferring(true);
                }}
              >
                {t('ticketView.transferAction')}
              </MenuItem>
            )}
            {useSchedules && ticket.contact && (
              <MenuItem
                data-testid="ticket-schedule"
                onClick={() => {
                  setMenu(null);
                  setScheduling(true);
                }}
              >
                {t('schedules.fromTicket')}
              </MenuItem>
            )}
            {profile && can(profile, 'ticket-options:deleteTicket') && (
              <MenuItem
                onClick={() => {
                  setMenu(null);
                  setConfirmDelete(true);
                }}
              >
                {t('tickets.delete')}
              </MenuItem>
            )}
          </Menu>
        </Paper>
        <TagEditor ticket={ticket} />
        <MessagesList
          messages={messages}
          loading={loading}
          onLoadOlder={loadOlder}
          onReply={setReplyTo}
          onEdit={setEditing}
          onDelete={(m) => void deleteMessage(m)}
        />
        <MessageInput ticket={ticket} replyTo={replyTo} onClearReply={() => setReplyTo(null)} />
        <Dialog open={confirmDelete} onClose={() => setConfirmDelete(false)}>
          <DialogTitle>{t('tickets.deleteTitle', { name: ticket.contact?.name })}</DialogTitle>
          <DialogContent>{t('tickets.deleteConfirm')}</DialogContent>
          <DialogActions>
            <Button onClick={() => setConfirmDelete(false)}>{t('common.cancel')}</Button>
            <Button
              color="error"
              variant="contained"
              onClick={() => {
                setConfirmDelete(false);
                void remove(ticket);
              }}
            >
              {t('common.delete')}
            </Button>
          </DialogActions>
        </Dialog>
        <TransferDialog
          ticket={ticket}
          open={transferring}
          onClose={() => setTransferring(false)}
        />
        <EditMessageDialog message={editing} onClose={() => setEditing(null)} />
        {useSchedules && ticket.contact && (
          <ScheduleDialog
            open={scheduling}
            record={null}
            contact={ticket.contact}
            ticketId={ticket.id}
            onClose={() => setScheduling(false)}
          />
        )}
      </Box>
      {overlayDrawer ? (
        <Drawer anchor="right" open={drawer} onClose={() => setDrawer(false)}>
          <ContactDrawer ticket={ticket} onClose={() => setDrawer(false)} />
        </Drawer>
      ) : (
        drawer && <ContactDrawer ticket={ticket} onClose={() => setDrawer(false)} />
      )}
    </Box>
  );
}
