import SmartToy from '@mui/icons-material/SmartToy';
import Visibility from '@mui/icons-material/Visibility';
import Avatar from '@mui/material/Avatar';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import ListItemButton from '@mui/material/ListItemButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { can, PREVIEW_LENGTH, shortenContactName } from '@atende/shared';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import type { Ticket } from '../../api/types';
import { useSession } from '../../session/store';
import { formatLastUpdate } from './ticketLists';
import { TimeSinceLabel } from './TimeSinceLabel';
import { FormattedText } from '../../components/FormattedText';

export const TICKET_ITEM_HEIGHT = 96;

interface Props {
  ticket: Ticket;
  selected: boolean;
  viewportWidth: number;
  compact: boolean;
  onOpen(ticket: Ticket): void;
  onAccept(ticket: Ticket): void;
  onFinish(ticket: Ticket): void;
  onReopen(ticket: Ticket): void;
  onPeek(ticket: Ticket): void;
}

const tagSx = { height: 18, fontSize: 10, maxWidth: 90 } as const;

/** A ticket in the list with every element core §2 lists. */
export const TicketListItem = memo(function TicketListItem({
  ticket,
  selected,
  viewportWidth,
  compact,
  onOpen,
  onAccept,
  onFinish,
  onReopen,
  onPeek,
}: Props) {
  const { t } = useTranslation();
  const profile = useSession((s) => s.user?.profile);
  const pending = ticket.status === 'pending';
  const name = shortenContactName(ticket.contact?.name ?? '', viewportWidth);
  // A resolved ticket never shows an unread badge (issue 13 item 5).
  const unread = ticket.status === 'closed' ? 0 : (ticket.unreadMessages ?? 0);

  return (
    <ListItemButton
      selected={selected}
      // Pending tickets cannot be opened by click; they are accepted first.
      onClick={pending ? undefined : () => onOpen(ticket)}
      disableRipple={pending}
      sx={{
        height: TICKET_ITEM_HEIGHT,
        alignItems: 'flex-start',
        pl: 2,
        pr: 1,
        py: 1,
        gap: 1.5,
        borderBottom: 1,
        borderColor: 'divider',
      }}
      data-testid={`ticket-${ticket.id}`}
    >
      <Box
        aria-hidden
        sx={{
          position: 'absolute',
          left: 0,
          top: 0,
          bottom: 0,
          width: 6,
          bgcolor: ticket.queue?.color ?? 'grey.500',
        }}
      />
      <Avatar src={ticket.contact?.profilePicUrl} alt={ticket.contact?.name} />
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
          <Typography noWrap sx={{ fontWeight: 600, flexShrink: 1, minWidth: 0 }}>
            {name}
          </Typography>
          <TimeSinceLabel updatedAt={ticket.updatedAt} />
          {ticket.chatbot && (
            <Tooltip title={t('tickets.chatbot')}>
              <SmartToy fontSize="small" color="action" />
            </Tooltip>
          )}
          <Box sx={{ flex: 1 }} />
          <Typography variant="caption" color={unread ? 'success.main' : 'text.secondary'}>
            {formatLastUpdate(ticket.updatedAt, new Date())}
          </Typography>
        </Box>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
          <Typography variant="body2" color="text.secondary" noWrap sx={{ flex: 1, minWidth: 0 }}>
            <FormattedText
              text={ticket.lastMessage ?? ''}
              max={compact ? PREVIEW_LENGTH : undefined}
            />
          </Typography>
          {unread > 0 && (
            <Badge
              badgeContent={unread}
              color="success"
              aria-label={t('tickets.unread', { count: unread })}
              // Without children the count would float over the tags below: kept in its row.
              sx={{ mr: 1, '& .MuiBadge-badge': { position: 'static', transform: 'none' } }}
            />
          )}
        </Box>
        <Box sx={{ display: 'flex', gap: 0.5, mt: 0.5, overflow: 'hidden' }}>
          {ticket.whatsapp?.name && <Chip size="small" label={ticket.whatsapp.name} sx={tagSx} />}
          {ticket.user?.name && (
            <Chip size="small" color="primary" label={ticket.user.name} sx={tagSx} />
          )}
          <Chip
            size="small"
            label={ticket.queue?.name ?? t('tickets.noQueue')}
            sx={{ ...tagSx, bgcolor: ticket.queue?.color ?? 'grey.600', color: '#fff' }}
          />
          {ticket.tags?.map((tag) => (
            <Chip
              key={tag.id}
              size="small"
              label={tag.name}
              sx={{ ...tagSx, bgcolor: tag.color, color: '#fff' }}
            />
          ))}
        </Box>
      </Box>
      <Box sx={{ display: 'flex', flexDirection: 'column', gap: 0.5, alignItems: 'flex-end' }}>
        {profile && can(profile, 'tickets-manager:showall') && (
          <Tooltip title={t('tickets.peek')}>
            <IconButton
              size="small"
              aria-label={t('tickets.peek')}
              onClick={(e) => {
                e.stopPropagation();
                onPeek(ticket);
              }}
            >
              <Visibility fontSize="small" />
            </IconButton>
          </Tooltip>
        )}
        {pending && (
          <Button
            size="small"
            variant="contained"
            color="success"
            onClick={(e) => (e.stopPropagation(), onAccept(ticket))}
          >
            {t('tickets.accept')}
          </Button>
        )}
        {ticket.status !== 'closed' ? (
          <Button
            size="small"
            variant="outlined"
            color="error"
            onClick={(e) => (e.stopPropagation(), onFinish(ticket))}
          >
            {t('tickets.finish')}
          </Button>
        ) : (
          <Button
            size="small"
            variant="outlined"
            onClick={(e) => (e.stopPropagation(), onReopen(ticket))}
          >
            {t('tickets.reopen')}
          </Button>
        )}
      </Box>
    </ListItemButton>
  );
});
