import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Ticket } from '../../../api/types';
import { useFieldError } from '../../../components/useFieldError';
import { useLookups } from '../useLookups';
import { useTicketActions } from '../useTicketActions';

/** Transfer (core §4): the queue is required; user and connection are optional. */
export function TransferDialog({
  ticket,
  open,
  onClose,
}: {
  ticket: Ticket;
  open: boolean;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const fieldError = useFieldError();
  const { run } = useTicketActions();
  const { queues, users, connections } = useLookups(open, ['queues', 'users', 'connections']);
  const [queueId, setQueueId] = useState<number | ''>('');
  const [userId, setUserId] = useState<number | ''>('');
  const [whatsappId, setWhatsappId] = useState<number | ''>('');
  const [missingQueue, setMissingQueue] = useState(false);

  useEffect(() => {
    if (!open) return;
    setQueueId('');
    setUserId('');
    setWhatsappId('');
    setMissingQueue(false);
  }, [open]);

  // Users of the chosen queue (users without a queue list are offered always).
  const candidates = users.filter(
    (u) => queueId === '' || !u.queues || u.queues.some((q) => q.id === queueId),
  );

  const submit = async () => {
    if (queueId === '') return setMissingQueue(true);
    const saved = await run(ticket, {
      action: 'transfer',
      queueId,
      userId: userId === '' ? null : userId,
      whatsappId: whatsappId === '' ? null : whatsappId,
    });
    if (saved) onClose();
  };

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs">
      <DialogTitle>{t('transfer.title')}</DialogTitle>
      <DialogContent sx={{ display: 'grid', gap: 2, pt: '8px !important' }}>
        <TextField
          select
          required
          label={t('transfer.queue')}
          value={queueId}
          error={missingQueue}
          helperText={missingQueue ? fieldError('Selecione uma fila') : undefined}
          onChange={(e) => {
            setQueueId(Number(e.target.value) || '');
            setUserId('');
            setMissingQueue(false);
          }}
        >
          {queues.map((q) => (
            <MenuItem key={q.id} value={q.id}>
              {q.name}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          label={t('transfer.user')}
          value={userId}
          onChange={(e) => setUserId(Number(e.target.value) || '')}
        >
          <MenuItem value="">{t('transfer.none')}</MenuItem>
          {candidates.map((u) => (
            <MenuItem key={u.id} value={u.id}>
              {u.name}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          label={t('transfer.connection')}
          value={whatsappId}
          onChange={(e) => setWhatsappId(Number(e.target.value) || '')}
        >
          <MenuItem value="">{t('transfer.none')}</MenuItem>
          {connections.map((c) => (
            <MenuItem key={c.id} value={c.id}>
              {c.name}
            </MenuItem>
          ))}
        </TextField>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.cancel')}</Button>
        <Button variant="contained" onClick={() => void submit()}>
          {t('transfer.submit')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
