import Close from '@mui/icons-material/Close';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  contactEndpoints,
  formatPhoneDisplay,
  noteEndpoints,
  ticketNoteInput,
  type NoteAnswer,
} from '@atende/shared';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import type { Contact, Ticket } from '../../api/types';
import { useCompanyEvent } from '../../session/useRealtime';
import { useFieldError } from '../../components/useFieldError';
import { toast } from '../../ui/toast';
import { lazyDialog } from '../../routes/lazyDialog';
import { useErrorToast } from '../../ui/useErrorToast';

// Its form code loads when it first opens (routes/lazyDialog.tsx).
const ContactDialog = lazyDialog(
  () => import('./dialogs/ContactDialog').then((m) => m.ContactDialog),
  (p) => p.open,
);

/** core §9: the contact drawer is 320 px wide. */
export const CONTACT_DRAWER_WIDTH = 320;

function useNotes(ticket: Ticket) {
  const showError = useErrorToast();
  const [notes, setNotes] = useState<NoteAnswer[]>([]);
  const reload = useCallback(() => {
    api
      .call(noteEndpoints.listNotes, {
        query: { ticketId: ticket.id, contactId: ticket.contactId },
      })
      .then(setNotes)
      .catch(showError);
  }, [ticket.id, ticket.contactId, showError]);
  useEffect(reload, [reload]);
  return { notes, reload };
}

/** The ticket's brief contact until the full one (with extra info) is loaded. */
type DrawerContact = Ticket['contact'] & Partial<Contact>;

/** The full contact (the ticket carries only its main fields), kept live by contact events. */
function useContact(ticket: Ticket): [DrawerContact, (c: Contact) => void] {
  const showError = useErrorToast();
  const [contact, setContact] = useState<DrawerContact>(ticket.contact);
  useEffect(() => {
    let cancelled = false;
    api
      .call(contactEndpoints.showContact, { params: { id: ticket.contactId } })
      .then((loaded) => !cancelled && setContact(loaded))
      .catch((error: unknown) => !cancelled && showError(error));
    return () => {
      cancelled = true;
    };
  }, [ticket.contactId, showError]);
  useCompanyEvent('contact', (payload) => {
    const data = payload as { contact?: Contact };
    if (data.contact?.id === ticket.contactId) setContact((c) => ({ ...c, ...data.contact }));
  });
  return [contact, setContact];
}

/** The right drawer of a ticket: the contact with edit, internal notes and extra info. */
export function ContactDrawer({ ticket, onClose }: { ticket: Ticket; onClose(): void }) {
  const { t, i18n } = useTranslation();
  const fieldError = useFieldError();
  const showError = useErrorToast();
  const { notes, reload } = useNotes(ticket);
  const [note, setNote] = useState('');
  const [noteError, setNoteError] = useState<string | undefined>();
  const [editing, setEditing] = useState(false);
  const [contact, setContact] = useContact(ticket);

  const addNote = async () => {
    const parsed = ticketNoteInput.safeParse({
      note,
      ticketId: ticket.id,
      contactId: ticket.contactId,
    });
    if (!parsed.success) return setNoteError(fieldError(parsed.error.issues[0]?.message));
    try {
      await api.call(noteEndpoints.createNote, { body: parsed.data });
      toast.success(t('contactDrawer.noteAdded'));
      setNote('');
      reload();
    } catch (error) {
      showError(error);
    }
  };

  const deleteNote = async (id: number) => {
    try {
      await api.call(noteEndpoints.deleteNote, { params: { id } });
      toast.success(t('contactDrawer.noteDeleted'));
      reload();
    } catch (error) {
      showError(error);
    }
  };

  return (
    <Paper
      square
      elevation={0}
      data-testid="contact-drawer"
      sx={{
        width: CONTACT_DRAWER_WIDTH,
        maxWidth: '100vw',
        height: '100%',
        flexShrink: 0,
        borderLeft: 1,
        borderColor: 'divider',
        overflowY: 'auto',
        display: 'flex',
        flexDirection: 'column',
      }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', px: 1, py: 1 }}>
        <IconButton aria-label={t('contactDrawer.close')} onClick={onClose}>
          <Close />
        </IconButton>
        <Typography sx={{ fontWeight: 600 }}>{t('contactDrawer.title')}</Typography>
      </Box>
      <Divider />
      <Box sx={{ display: 'grid', justifyItems: 'center', gap: 0.5, p: 2 }}>
        <Avatar
          src={contact.urlPicture ?? contact.profilePicUrl}
          alt={contact.name}
          sx={{ width: 96, height: 96 }}
        />
        <Typography sx={{ fontWeight: 600 }}>{contact.name}</Typography>
        <Typography variant="body2">{formatPhoneDisplay(contact.number)}</Typography>
        {contact.email && <Typography variant="body2">{contact.email}</Typography>}
        <Button variant="outlined" size="small" onClick={() => setEditing(true)}>
          {t('contactDrawer.edit')}
        </Button>
      </Box>
      <Divider />
      <Box sx={{ p: 2, display: 'grid', gap: 1 }}>
        <Typography variant="subtitle2">{t('contactDrawer.notes')}</Typography>
        <TextField
          multiline
          minRows={2}
          size="small"
          placeholder={t('contactDrawer.notePlaceholder')}
          value={note}
          error={!!noteError}
          helperText={noteError}
          onChange={(e) => (setNote(e.target.value), setNoteError(undefined))}
          slotProps={{ htmlInput: { 'aria-label': t('contactDrawer.notePlaceholder') } }}
        />
        <Button variant="contained" size="small" onClick={() => void addNote()}>
          {t('contactDrawer.addNote')}
        </Button>
        <List dense disablePadding>
          {notes.length === 0 && (
            <Typography variant="caption" color="text.secondary">
              {t('contactDrawer.noNotes')}
            </Typography>
          )}
          {notes.map((n) => (
            <ListItem
              key={n.id}
              disableGutters
              secondaryAction={
                <IconButton
                  size="small"
                  aria-label={t('contactDrawer.deleteNote')}
                  onClick={() => void deleteNote(n.id)}
                >
                  <DeleteOutline fontSize="small" />
                </IconButton>
              }
            >
              <ListItemText
                primary={n.note}
                secondary={`${n.user?.name ?? ''} · ${new Date(n.createdAt).toLocaleString(i18n.language)}`}
                sx={{ whiteSpace: 'pre-wrap', pr: 3 }}
              />
            </ListItem>
          ))}
        </List>
      </Box>
      <Divider />
      <Box sx={{ p: 2 }}>
        <Typography variant="subtitle2">{t('contactDrawer.extraInfo')}</Typography>
        {(contact.extraInfo ?? []).map((info) => (
          <Box key={`${info.id ?? info.name}`} sx={{ mt: 1 }}>
            <Typography variant="caption" color="text.secondary">
              {info.name}
            </Typography>
            <Typography variant="body2">{info.value}</Typography>
          </Box>
        ))}
      </Box>
      <ContactDialog
        open={editing}
        contact={contact}
        onClose={() => setEditing(false)}
        onSaved={setContact}
      />
    </Paper>
  );
}
