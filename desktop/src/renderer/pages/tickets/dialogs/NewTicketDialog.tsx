import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { contactEndpoints, ticketEndpoints } from '@atende/shared';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { api, ApiError } from '../../../api';
import type { Contact } from '../../../api/types';
import { useSession } from '../../../session/store';
import { useErrorToast } from '../../../ui/useErrorToast';
import { useLookups } from '../useLookups';
import { ContactDialog } from './ContactDialog';
import {
  CONTACT_LOOKUP_DELAY_MS,
  contactOptions,
  newTicketProblem,
  otherOpenTicket,
  wantsContactSearch,
  type ContactOption,
} from './newTicket';

interface Props {
  open: boolean;
  /** Opened from the contacts page with the contact already chosen. */
  contact?: Contact | null;
  onClose(): void;
}

/** New ticket (core §2, §5): contact search, queue (required unless admin) and connection. */
export function NewTicketDialog({ open, contact: preset, onClose }: Props) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const showError = useErrorToast();
  const user = useSession((s) => s.user);
  const { queues, connections } = useLookups(open, ['queues', 'connections']);
  const [input, setInput] = useState('');
  const [found, setFound] = useState<Contact[]>([]);
  const [contact, setContact] = useState<Contact | null>(preset ?? null);
  const [queueId, setQueueId] = useState<number | ''>('');
  const [whatsappId, setWhatsappId] = useState<number | ''>('');
  const [problem, setProblem] = useState<string | null>(null);
  const [creating, setCreating] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const isAdmin = user?.profile === 'admin';
  const myQueues = isAdmin ? queues : (user?.queues ?? []);

  useEffect(() => {
    if (!open) return;
    setContact(preset ?? null);
    setInput('');
    setFound([]);
    setQueueId(user?.queues.length === 1 ? user.queues[0]!.id : '');
    setWhatsappId(user?.whatsappId ?? '');
    setProblem(null);
  }, [open, preset, user]);

  // The lookup waits 1500 ms after the last key and needs 3 characters (core §5, §9).
  useEffect(() => {
    if (!open || !wantsContactSearch(input)) {
      setFound([]);
      return;
    }
    let cancelled = false;
    const timer = setTimeout(() => {
      api
        .call(contactEndpoints.listContacts, { query: { searchParam: input, pageNumber: 1 } })
        .then((answer) => !cancelled && setFound(answer.contacts))
        .catch((error: unknown) => !cancelled && showError(error));
    }, CONTACT_LOOKUP_DELAY_MS);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [open, input, showError]);

  const submit = async () => {
    const invalid = newTicketProblem({ contact, queueId: queueId || null, isAdmin });
    if (invalid) return setProblem(t(invalid));
    if (!contact || !user) return;
    setSaving(true);
    try {
      const ticket = await api.call(ticketEndpoints.createTicket, {
        body: {
          contactId: contact.id,
          queueId: queueId || null,
          whatsappId: whatsappId || null,
          userId: user.id,
          status: 'open',
        },
      });
      onClose();
      navigate(`/tickets/${ticket.uuid}`);
    } catch (error) {
      const other = error instanceof ApiError ? otherOpenTicket(error) : null;
      if (other && other.user?.id === user.id) {
        // The user's own open ticket: open it instead of complaining.
        onClose();
        navigate(`/tickets/${other.uuid}`);
      } else if (other) {
        setProblem(
          t('newTicket.ownedBy', {
            user: other.user?.name ?? '-',
            queue: other.queue?.name ?? '-',
          }),
        );
      } else showError(error);
    } finally {
      setSaving(false);
    }
  };

  return (
    <>
      <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs">
        <DialogTitle>{t('newTicket.title')}</DialogTitle>
        <DialogContent sx={{ display: 'grid', gap: 2, pt: '8px !important' }}>
          <Autocomplete<ContactOption, false, false, false>
            options={contactOptions(found, input)}
            value={contact ? { kind: 'contact', contact } : null}
            filterOptions={(options) => options}
            getOptionLabel={(o) =>
              o.kind === 'contact' ? `${o.contact.name} - ${o.contact.number}` : o.name
            }
            isOptionEqualToValue={(a, b) =>
              a.kind === 'contact' && b.kind === 'contact' && a.contact.id === b.contact.id
            }
            renderOption={(props, o) => (
              <li {...props} key={o.kind === 'contact' ? o.contact.id : `new-${o.name}`}>
                {o.kind === 'contact'
                  ? `${o.contact.name} - ${o.contact.number}`
                  : t('newTicket.createContact', { name: o.name })}
              </li>
            )}
            noOptionsText={
              wantsContactSearch(input) ? t('newTicket.noContacts') : t('newTicket.typeMore')
            }
            inputValue={input}
            onInputChange={(_, value, reason) => reason !== 'reset' && setInput(value)}
            onChange={(_, option) => {
              setProblem(null);
              if (option?.kind === 'create') setCreating(option.name);
              else setContact(option?.contact ?? null);
            }}
            renderInput={(params) => (
              <TextField {...params} label={t('newTicket.contact')} autoFocus />
            )}
          />
          <TextField
            select
            label={t('newTicket.queue')}
            value={queueId}
            onChange={(e) => (setQueueId(Number(e.target.value) || ''), setProblem(null))}
          >
            {isAdmin && <MenuItem value="">{t('newTicket.none')}</MenuItem>}
            {myQueues.map((q) => (
              <MenuItem key={q.id} value={q.id}>
                {q.name}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            label={t('newTicket.connection')}
            value={whatsappId}
            onChange={(e) => setWhatsappId(Number(e.target.value) || '')}
          >
            <MenuItem value="">{t('newTicket.none')}</MenuItem>
            {connections.map((c) => (
              <MenuItem key={c.id} value={c.id}>
                {c.name}
              </MenuItem>
            ))}
          </TextField>
          {problem && (
            <Alert severity="warning" data-testid="new-ticket-problem">
              {problem}
            </Alert>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button variant="contained" disabled={saving} onClick={() => void submit()}>
            {t('newTicket.submit')}
          </Button>
        </DialogActions>
      </Dialog>
      <ContactDialog
        open={creating !== null}
        initialName={creating ?? ''}
        onClose={() => setCreating(null)}
        onSaved={(created) => {
          setContact(created);
          setInput('');
        }}
      />
    </>
  );
}
