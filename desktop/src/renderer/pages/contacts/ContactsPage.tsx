import Add from '@mui/icons-material/Add';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import Download from '@mui/icons-material/Download';
import Edit from '@mui/icons-material/Edit';
import UploadFile from '@mui/icons-material/UploadFile';
import WhatsApp from '@mui/icons-material/WhatsApp';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { can, contactEndpoints, formatPhoneDisplay } from '@atende/shared';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import type { Contact } from '../../api/types';
import { useSession } from '../../session/store';
import { toast } from '../../ui/toast';
import { useErrorToast } from '../../ui/useErrorToast';
import { ContactDialog } from '../tickets/dialogs/ContactDialog';
import { NewTicketDialog } from '../tickets/dialogs/NewTicketDialog';
import { useContacts } from './useContacts';

/** admin §2: sheet import accepts .xls and .xlsx. */
export const SHEET_TYPES = '.xls,.xlsx';
/** core §9: the next page loads within 100 px of the bottom. */
const NEXT_PAGE_THRESHOLD_PX = 100;

/** /contacts (admin §2): search, sheet import, add, CSV export, table and open ticket. */
export default function ContactsPage() {
  const { t, i18n } = useTranslation();
  const showError = useErrorToast();
  const profile = useSession((s) => s.user?.profile);
  const [search, setSearch] = useState('');
  const { rows, loading, loadMore, reload } = useContacts(search);
  const [editing, setEditing] = useState<Contact | null | undefined>(undefined);
  const [ticketFor, setTicketFor] = useState<Contact | null>(null);
  const [deleting, setDeleting] = useState<Contact | null>(null);
  const [importing, setImporting] = useState(false);
  const sheet = useRef<HTMLInputElement>(null);
  const mayDelete = !!profile && can(profile, 'contacts-page:deleteContact');

  const importSheet = async (file: File | undefined) => {
    if (!file) return;
    const form = new FormData();
    form.append('file', file);
    setImporting(true);
    try {
      const report = await api.call(contactEndpoints.uploadContacts, { body: form });
      toast.success(
        t('contacts.importDone', { created: report.created, errors: report.errors.length }),
      );
      reload();
    } catch (error) {
      showError(error);
    } finally {
      setImporting(false);
      if (sheet.current) sheet.current.value = '';
    }
  };

  const exportCsv = async () => {
    try {
      // A file endpoint answers the platform's bytes: a Blob in the renderer.
      const blob = (await api.call(contactEndpoints.exportContacts)) as Blob;
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = 'contacts.csv';
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 1_000);
    } catch (error) {
      showError(error);
    }
  };

  const remove = async (contact: Contact) => {
    setDeleting(null);
    try {
      await api.call(contactEndpoints.deleteContact, { params: { id: contact.id } });
      toast.success(t('contacts.deleted'));
    } catch (error) {
      showError(error);
    }
  };

  return (
    <Box sx={{ p: 2, height: '100%', display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
        <Typography variant="h5" sx={{ flex: 1 }}>
          {t('contacts.title')}
        </Typography>
        <TextField
          size="small"
          placeholder={t('contacts.searchPlaceholder')}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          slotProps={{ htmlInput: { 'aria-label': t('contacts.searchPlaceholder') } }}
        />
        <input
          ref={sheet}
          type="file"
          accept={SHEET_TYPES}
          hidden
          data-testid="sheet-input"
          onChange={(e) => void importSheet(e.target.files?.[0])}
        />
        <Button
          variant="outlined"
          startIcon={<UploadFile />}
          disabled={importing}
          onClick={() => sheet.current?.click()}
        >
          {t('contacts.import')}
        </Button>
        <Button variant="outlined" startIcon={<Download />} onClick={() => void exportCsv()}>
          {t('contacts.export')}
        </Button>
        <Button variant="contained" startIcon={<Add />} onClick={() => setEditing(null)}>
          {t('contacts.add')}
        </Button>
      </Box>
      {importing && (
        <Box>
          <Typography variant="body2">{t('contacts.importing')}</Typography>
          <LinearProgress aria-label={t('contacts.importing')} />
        </Box>
      )}
      <Paper
        variant="outlined"
        sx={{ flex: 1, minHeight: 0, overflowY: 'auto' }}
        onScroll={(e) => {
          const el = e.currentTarget;
          if (el.scrollHeight - el.scrollTop - el.clientHeight < NEXT_PAGE_THRESHOLD_PX) loadMore();
        }}
      >
        <Table size="small" stickyHeader>
          <TableHead>
            <TableRow>
              <TableCell padding="checkbox" />
              <TableCell>{t('contacts.name')}</TableCell>
              <TableCell>{t('contacts.number')}</TableCell>
              <TableCell>{t('contacts.email')}</TableCell>
              <TableCell>{t('contacts.lastInteraction')}</TableCell>
              <TableCell align="right">{t('contacts.actions')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((contact) => (
              <TableRow key={contact.id} hover>
                <TableCell padding="checkbox">
                  <Avatar src={contact.urlPicture ?? contact.profilePicUrl} alt={contact.name} />
                </TableCell>
                <TableCell>{contact.name}</TableCell>
                <TableCell>{formatPhoneDisplay(contact.number)}</TableCell>
                <TableCell>{contact.email}</TableCell>
                <TableCell>
                  {contact.updatedAt
                    ? new Date(contact.updatedAt).toLocaleString(i18n.language)
                    : ''}
                </TableCell>
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  <IconButton
                    size="small"
                    aria-label={t('contacts.openTicket')}
                    onClick={() => setTicketFor(contact)}
                  >
                    <WhatsApp fontSize="small" />
                  </IconButton>
                  <IconButton
                    size="small"
                    aria-label={t('common.edit')}
                    onClick={() => setEditing(contact)}
                  >
                    <Edit fontSize="small" />
                  </IconButton>
                  {mayDelete && (
                    <IconButton
                      size="small"
                      aria-label={t('common.delete')}
                      onClick={() => setDeleting(contact)}
                    >
                      <DeleteOutlined fontSize="small" />
                    </IconButton>
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        {loading && <LinearProgress />}
        {!loading && rows.length === 0 && (
          <Typography sx={{ p: 2 }} color="text.secondary">
            {t('contacts.empty')}
          </Typography>
        )}
      </Paper>
      <ContactDialog
        open={editing !== undefined}
        contact={editing}
        onClose={() => setEditing(undefined)}
      />
      <NewTicketDialog
        open={ticketFor !== null}
        contact={ticketFor}
        onClose={() => setTicketFor(null)}
      />
      <Dialog open={deleting !== null} onClose={() => setDeleting(null)}>
        <DialogTitle>{t('contacts.deleteTitle', { name: deleting?.name })}</DialogTitle>
        <DialogContent>{t('tickets.deleteConfirm')}</DialogContent>
        <DialogActions>
          <Button onClick={() => setDeleting(null)}>{t('common.cancel')}</Button>
          <Button
            color="error"
            variant="contained"
            onClick={() => deleting && void remove(deleting)}
          >
            {t('common.delete')}
          </Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}
