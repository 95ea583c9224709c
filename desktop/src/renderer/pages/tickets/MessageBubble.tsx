import Done from '@mui/icons-material/Done';
import DoneAll from '@mui/icons-material/DoneAll';
import ExpandMore from '@mui/icons-material/ExpandMore';
import InsertDriveFile from '@mui/icons-material/InsertDriveFileOutlined';
import PhoneMissed from '@mui/icons-material/PhoneMissed';
import Schedule from '@mui/icons-material/Schedule';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import { memo, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import type { Message } from '../../api/types';
import { ackState, fileNameOf, mediaPathOf } from './messages';
import { FormattedText } from '../../components/FormattedText';

/**
 * Media is fetched as a blob by its server path with the session (core §7; on the desktop through
 * main's media cache), not by the signed link, which expires.
 */
function useMediaBlob(url: string | null | undefined): string | null {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    if (!url) return;
    let revoked = false;
    let objectUrl: string | null = null;
    api
      .get<Blob>(url, { responseType: 'blob' })
      .then((blob) => {
        if (revoked) return;
        objectUrl = URL.createObjectURL(blob);
        setSrc(objectUrl);
      })
      .catch(() => setSrc(null));
    return () => {
      revoked = true;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [url]);
  return src;
}

function Media({ message }: { message: Message }) {
  const { t } = useTranslation();
  const src = useMediaBlob(mediaPathOf(message.mediaUrl));
  switch (message.mediaType) {
    case 'image':
      return src ? (
        <Box
          component="img"
          src={src}
          alt=""
          sx={{ maxWidth: 260, borderRadius: 1, display: 'block' }}
        />
      ) : null;
    case 'audio':
      return src ? <audio controls src={src} /> : null;
    case 'video':
      return src ? <Box component="video" controls src={src} sx={{ maxWidth: 260 }} /> : null;
    case 'application':
    case 'document': {
      const name = fileNameOf(message);
      return (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, minWidth: 0, pr: 3 }}>
          <InsertDriveFile color="action" />
          <Typography
            variant="body2"
            data-testid="message-file-name"
            title={name}
            sx={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere' }}
          >
            {name}
          </Typography>
          {src ? (
            <Button size="small" variant="outlined" href={src} download={name}>
              {t('messages.download')}
            </Button>
          ) : (
            <Button size="small" variant="outlined" disabled>
              {t('messages.download')}
            </Button>
          )}
        </Box>
      );
    }
    case 'locationMessage':
      return <Typography variant="body2">📍 {t('messages.location')}</Typography>;
    case 'contactMessage':
    case 'vcard':
      return <Typography variant="body2">👤 {t('messages.contactCard')}</Typography>;
    case 'call_log':
      return (
        <Typography variant="body2" sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
          <PhoneMissed fontSize="small" color="error" />
          {t('messages.missedCall', { time: new Date(message.createdAt).toLocaleTimeString() })}
        </Typography>
      );
    default:
      return null;
  }
}

function Ack({ ack }: { ack: number }) {
  const { t } = useTranslation();
  const state = ackState(ack);
  const label = t(
    state === 'pending'
      ? 'messages.ack0'
      : state === 'sent'
        ? 'messages.ack1'
        : state === 'delivered'
          ? 'messages.ack3'
          : 'messages.ack4',
  );
  const sx = { fontSize: 14, ml: 0.5 };
  if (state === 'pending') return <Schedule aria-label={label} sx={sx} />;
  if (state === 'sent') return <Done aria-label={label} sx={sx} />;
  return (
    <DoneAll aria-label={label} sx={{ ...sx, color: state === 'read' ? 'info.main' : undefined }} />
  );
}

interface Props {
  message: Message;
  readOnly?: boolean;
  onReply?(message: Message): void;
  onEdit?(message: Message): void;
  onDelete?(message: Message): void;
}

/** One message: body or media, quote, time and acks; a menu with reply, edit and delete. */
export const MessageBubble = memo(function MessageBubble({
  message,
  readOnly,
  onReply,
  onEdit,
  onDelete,
}: Props) {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const mine = message.fromMe;
  const time = new Date(message.createdAt).toLocaleTimeString([], {
    hour: '2-digit',
    minute: '2-digit',
  });
  const isFile = message.mediaType === 'application' || message.mediaType === 'document';
  const hasBody =
    message.body &&
    !(
      message.mediaType &&
      message.mediaType !== 'chat' &&
      mediaPathOf(message.body) === mediaPathOf(message.mediaUrl)
    ) &&
    !(isFile && message.body === fileNameOf(message));

  return (
    <Box
      sx={{ display: 'flex', justifyContent: mine ? 'flex-end' : 'flex-start', px: 2, py: 0.5 }}
      data-testid={`message-${message.id}`}
    >
      <Box
        sx={{
          maxWidth: '75%',
          position: 'relative',
          bgcolor: mine ? 'success.light' : 'background.paper',
          color: mine ? 'common.black' : 'text.primary',
          borderRadius: 2,
          px: 1.5,
          py: 1,
          boxShadow: 1,
          '&:hover .message-menu': { opacity: 1 },
        }}
      >
        {!readOnly && !message.isDeleted && (
          <IconButton
            className="message-menu"
            size="small"
            aria-label={t('ticketView.options')}
            onClick={(e) => setAnchor(e.currentTarget)}
            sx={{ position: 'absolute', top: 0, right: 0, opacity: 0.3 }}
          >
            <ExpandMore fontSize="small" />
          </IconButton>
        )}
        {message.quotedMsg && (
          <Box sx={{ borderLeft: 4, borderColor: 'primary.main', pl: 1, mb: 0.5, opacity: 0.8 }}>
            <Typography variant="caption" noWrap component="p">
              <FormattedText text={message.quotedMsg.body} />
            </Typography>
          </Box>
        )}
        {message.isDeleted ? (
          <Typography variant="body2" sx={{ fontStyle: 'italic' }} color="text.secondary">
            {t('messages.deleted')}
          </Typography>
        ) : (
          <>
            <Media message={message} />
            {hasBody && (
              <Typography
                variant="body2"
                sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', pr: 3 }}
              >
                <FormattedText text={message.body} />
              </Typography>
            )}
          </>
        )}
        <Typography
          variant="caption"
          sx={{ display: 'flex', justifyContent: 'flex-end', alignItems: 'center', opacity: 0.7 }}
        >
          {message.isEdited && `${t('messages.edited')} · `}
          {time}
          {mine && <Ack ack={message.ack} />}
        </Typography>
      </Box>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        <MenuItem onClick={() => (setAnchor(null), onReply?.(message))}>
          {t('messages.reply')}
        </MenuItem>
        {mine && (
          <MenuItem onClick={() => (setAnchor(null), onEdit?.(message))}>
            {t('messages.edit')}
          </MenuItem>
        )}
        {mine && (
          <MenuItem onClick={() => (setAnchor(null), onDelete?.(message))}>
            {t('messages.delete')}
          </MenuItem>
        )}
      </Menu>
    </Box>
  );
});
