import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import { useErrorToast } from '../../ui/useErrorToast';
import type { Connection } from './types';

/** A session event the server could not handle (`GET /whatsapp/{id}/dead-letters`). */
export interface DeadLetter {
  id: number;
  eventName: string;
  event: { name: string; payload?: { body?: unknown; id?: unknown } };
  error: string;
  attempts: number;
  receivedAt: string;
}

/** What the customer sent, as far as it can be shown: the text, else the event's own words. */
export function deadLetterContent(letter: DeadLetter): string {
  const body = letter.event.payload?.body;
  if (typeof body === 'string') return body;
  return JSON.stringify(letter.event.payload ?? {}).slice(0, 200);
}

/** The dead letters of one connection, newest first (admins only). */
export function DeadLettersDialog(props: { connection: Connection | null; onClose: () => void }) {
  const { connection, onClose } = props;
  const { t } = useTranslation();
  const showError = useErrorToast();
  const [letters, setLetters] = useState<DeadLetter[] | null>(null);

  useEffect(() => {
    setLetters(null);
    if (!connection) return;
    api
      .get<{ deadLetters: DeadLetter[] }>(`/whatsapp/${connection.id}/dead-letters`)
      .then((answer) => setLetters(answer.deadLetters))
      .catch(showError);
  }, [connection, showError]);

  return (
    <Dialog open={Boolean(connection)} onClose={onClose} maxWidth="md" fullWidth>
      <DialogTitle>
        {t('connections.deadLetters.title', { name: connection?.name ?? '' })}
      </DialogTitle>
      <DialogContent>
        {letters?.length === 0 && <Typography>{t('connections.deadLetters.empty')}</Typography>}
        {Boolean(letters?.length) && (
          <Table size="small">
            <TableHead>
              <TableRow>
                <TableCell>{t('connections.deadLetters.receivedAt')}</TableCell>
                <TableCell>{t('connections.deadLetters.event')}</TableCell>
                <TableCell>{t('connections.deadLetters.content')}</TableCell>
                <TableCell>{t('connections.deadLetters.error')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {letters!.map((letter) => (
                <TableRow key={letter.id}>
                  <TableCell>{new Date(letter.receivedAt).toLocaleString()}</TableCell>
                  <TableCell>{letter.eventName}</TableCell>
                  <TableCell>{deadLetterContent(letter)}</TableCell>
                  <TableCell>{letter.error}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('connections.deadLetters.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
