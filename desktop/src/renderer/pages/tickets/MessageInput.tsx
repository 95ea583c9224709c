import AttachFile from '@mui/icons-material/AttachFile';
import Close from '@mui/icons-material/Close';
import Chip from '@mui/material/Chip';
import Send from '@mui/icons-material/Send';
import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { messageEndpoints } from '@atende/shared';
import { useCallback, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import type { Message, Ticket } from '../../api/types';
import { readStorage, STORAGE_KEYS, writeStorage } from '../../session/storage';
import { useSession } from '../../session/store';
import { useErrorToast } from '../../ui/useErrorToast';
import { fileNameOf, isSendable, signBody } from './messages';
import { QuickReplies, type QuickMessage } from './QuickReplies';
import { VoiceRecorder } from './VoiceRecorder';

/** core §9: the input shows up to 5 rows. */
export const MESSAGE_INPUT_MAX_ROWS = 5;

interface Props {
  ticket: Ticket;
  replyTo: Message | null;
  onClearReply(): void;
}

/** Text, attachments and replies to a quoted message (POST /messages/{ticketId}). */
export function MessageInput({ ticket, replyTo, onClearReply }: Props) {
  const { t } = useTranslation();
  const user = useSession((s) => s.user);
  const showError = useErrorToast();
  const [body, setBody] = useState('');
  const [sending, setSending] = useState(false);
  const [recording, setRecording] = useState(false);
  const [signed, setSigned] = useState(() => readStorage(STORAGE_KEYS.signedMessage) !== 'false');
  const fileInput = useRef<HTMLInputElement>(null);
  const textInput = useRef<HTMLTextAreaElement>(null);
  /** The attachment of a picked quick reply, sent with the text. */
  const [quickMedia, setQuickMedia] = useState<QuickMessage | null>(null);
  const disabled = ticket.status !== 'open' || sending;

  const send = async () => {
    if (!user || (!isSendable(body) && !quickMedia)) return;
    setSending(true);
    try {
      if (quickMedia?.mediaUrl) {
        const blob = await api.get<Blob>(quickMedia.mediaUrl, { responseType: 'blob' });
        const name =
          quickMedia.mediaName ?? fileNameOf({ body: '', mediaUrl: quickMedia.mediaUrl });
        const caption = isSendable(body) ? signBody(body.trim(), user.name, signed) : '';
        await upload([new File([blob], name, { type: blob.type })], caption);
        setQuickMedia(null);
        setBody('');
        return;
      }
      await api.call(messageEndpoints.sendMessage, {
        params: { ticketId: ticket.id },
        body: {
          read: true,
          fromMe: true,
          mediaUrl: '',
          body: signBody(body.trim(), user.name, signed),
          quotedMsg: replyTo,
        },
      });
      setBody('');
      onClearReply();
    } catch (error) {
      showError(error);
    } finally {
      setSending(false);
    }
  };

  const upload = useCallback(
    async (files: readonly File[], caption: string) => {
      const form = new FormData();
      for (const file of files) form.append('medias', file);
      form.append('body', caption);
      form.append('fromMe', 'true');
      if (replyTo) form.append('quotedMsg', String(replyTo.id));
      await api.call(messageEndpoints.sendMessage, { params: { ticketId: ticket.id }, body: form });
      onClearReply();
    },
    [ticket.id, replyTo, onClearReply],
  );

  // The input keeps the focus after a suggestion is picked, the caret after the text.
  const pick = (q: QuickMessage) => {
    setBody(q.message);
    setQuickMedia(q.mediaUrl ? q : null);
    requestAnimationFrame(() => {
      const input = textInput.current;
      if (!input) return;
      input.focus();
      input.setSelectionRange(input.value.length, input.value.length);
    });
  };

  const sendFiles = async (files: FileList | null) => {
    if (!files?.length) return;
    setSending(true);
    try {
      await upload([...files], body.trim());
      setBody('');
    } catch (error) {
      showError(error);
    } finally {
      setSending(false);
      if (fileInput.current) fileInput.current.value = '';
    }
  };

  return (
    <Paper square elevation={2} sx={{ p: 1 }}>
      {replyTo && (
        <Box
          sx={{
            display: 'flex',
            alignItems: 'center',
            borderLeft: 4,
            borderColor: 'primary.main',
            pl: 1,
            mb: 1,
          }}
        >
          <Typography variant="body2" noWrap sx={{ flex: 1 }} data-testid="reply-preview">
            {replyTo.body}
          </Typography>
          <IconButton size="small" aria-label={t('common.cancel')} onClick={onClearReply}>
            <Close fontSize="small" />
          </IconButton>
        </Box>
      )}
      <QuickReplies input={body} onPick={pick} />
      {quickMedia && (
        <Chip
          icon={<AttachFile />}
          label={quickMedia.mediaName ?? t('messages.attach')}
          onDelete={() => setQuickMedia(null)}
          size="small"
          sx={{ mb: 1, maxWidth: '100%' }}
          data-testid="quick-reply-media"
        />
      )}
      <Box sx={{ display: 'flex', alignItems: 'flex-end', gap: 1 }}>
        <input
          ref={fileInput}
          type="file"
          multiple
          hidden
          onChange={(e) => void sendFiles(e.target.files)}
          data-testid="attach-input"
        />
        <IconButton
          aria-label={t('messages.attach')}
          disabled={disabled}
          onClick={() => fileInput.current?.click()}
        >
          <AttachFile />
        </IconButton>
        {!recording && (
          <TextField
            fullWidth
            multiline
            maxRows={MESSAGE_INPUT_MAX_ROWS}
            size="small"
            value={body}
            disabled={disabled}
            placeholder={
              ticket.status === 'open' ? t('messages.placeholder') : t('messages.placeholderClosed')
            }
            onChange={(e) => setBody(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && !e.shiftKey) {
                e.preventDefault();
                void send();
              }
            }}
            inputRef={textInput}
            slotProps={{ htmlInput: { 'aria-label': t('messages.placeholder') } }}
          />
        )}
        {isSendable(body) || quickMedia ? (
          <IconButton
            color="primary"
            aria-label={t('messages.send')}
            disabled={disabled}
            onClick={() => void send()}
          >
            <Send />
          </IconButton>
        ) : (
          <VoiceRecorder
            disabled={disabled}
            onActive={setRecording}
            onSend={(file) => upload([file], '')}
          />
        )}
      </Box>
      <FormControlLabel
        sx={{ ml: 0.5 }}
        control={
          <Switch
            size="small"
            checked={signed}
            onChange={(_, value) => {
              setSigned(value);
              writeStorage(STORAGE_KEYS.signedMessage, String(value));
            }}
          />
        }
        label={<Typography variant="caption">{t('messages.signed')}</Typography>}
      />
    </Paper>
  );
}
