import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { useTranslation } from 'react-i18next';
import type { Ticket } from '../../api/types';
import { MessagesList } from './MessagesList';
import { useMessages } from './useMessages';

/** An admin's read-only look at a conversation, without joining or accepting it (core §2). */
export function PeekDialog({ ticket, onClose }: { ticket: Ticket | null; onClose(): void }) {
  const { t } = useTranslation();
  const { messages, loading, loadOlder } = useMessages(ticket?.id, false);
  return (
    <Dialog open={ticket !== null} onClose={onClose} fullWidth maxWidth="md">
      <DialogTitle>{ticket?.contact?.name}</DialogTitle>
      <DialogContent dividers sx={{ p: 0 }}>
        <Box sx={{ height: '60vh', display: 'flex', flexDirection: 'column' }}>
          <MessagesList messages={messages} loading={loading} onLoadOlder={loadOlder} readOnly />
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
