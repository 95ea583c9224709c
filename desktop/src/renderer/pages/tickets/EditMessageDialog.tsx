import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { messageEndpoints } from '@atende/shared';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import type { Message } from '../../api/types';
import { useErrorToast } from '../../ui/useErrorToast';
import { isSendable } from './messages';

/** core §9: the edit-message editor shows up to 6 rows. */
export const EDIT_MESSAGE_MAX_ROWS = 6;

/** Edits one of the user's own messages (POST /messages/edit/{id}); an empty body is not sent. */
export function EditMessageDialog({
  message,
  onClose,
}: {
  message: Message | null;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const showError = useErrorToast();
  const [body, setBody] = useState('');
  useEffect(() => setBody(message?.body ?? ''), [message]);

  const save = async () => {
    if (!message || !isSendable(body)) return;
    try {
      await api.call(messageEndpoints.editMessage, {
        params: { id: message.id },
        body: { body: body.trim() },
      });
      onClose();
    } catch (error) {
      showError(error);
    }
  };

  return (
    <Dialog open={message !== null} onClose={onClose} fullWidth maxWidth="sm">
      <DialogTitle>{t('messages.editTitle')}</DialogTitle>
      <DialogContent>
        <TextField
          fullWidth
          multiline
          autoFocus
          maxRows={EDIT_MESSAGE_MAX_ROWS}
          value={body}
          onChange={(e) => setBody(e.target.value)}
          slotProps={{ htmlInput: { 'aria-label': t('messages.editTitle') } }}
          sx={{ mt: 1 }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.cancel')}</Button>
        <Button variant="contained" disabled={!isSendable(body)} onClick={() => void save()}>
          {t('common.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
