import { can, formatPhoneDisplay } from '@atende/shared';
import Download from '@mui/icons-material/Download';
import UploadFile from '@mui/icons-material/UploadFile';
import WhatsApp from '@mui/icons-material/WhatsApp';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import type { Contact } from '../../api/types';
import { ListPage, useResourceList, type Column } from '../../kit';
import { useSession } from '../../session/store';
import { toast } from '../../ui/toast';
import { useErrorToast } from '../../ui/useErrorToast';
import { ContactDialog } from '../tickets/dialogs/ContactDialog';
import { NewTicketDialog } from '../tickets/dialogs/NewTicketDialog';

/** admin §2: sheet import accepts .xls and .xlsx. */
export const SHEET_TYPES = '.xls,.xlsx';

/** A contact as the list answers it (the shared answer carries the time of its last change). */
type ContactRow = Contact;

/** /contacts (admin §2): search, sheet import, add, CSV export, table and open ticket. */
export default function ContactsPage() {
  const { t, i18n } = useTranslation();
  const showError = useErrorToast();
  const profile = useSession((s) => s.user?.profile);
  const list = useResourceList<ContactRow>({
    path: '/contacts',
    rows: 'contacts',
    event: 'contact',
  });
  const [ticketFor, setTicketFor] = useState<Contact | null>(null);
  const [importing, setImporting] = useState(false);
  const sheet = useRef<HTMLInputElement>(null);
  const mayDelete = !!profile && can(profile, 'contacts-page:deleteContact');

  const importSheet = async (file: File | undefined) => {
    if (!file) return;
    const form = new FormData();
    form.append('file', file);
    setImporting(true);
    try {
      const report = await api.post<{ created: number; errors: unknown[] }>(
        '/contacts/upload',
        form,
      );
      toast.success(
        t('contacts.importDone', { created: report.created, errors: report.errors.length }),
      );
      list.reload();
    } catch (error) {
      showError(error);
    } finally {
      setImporting(false);
      if (sheet.current) sheet.current.value = '';
    }
  };

  const exportCsv = async () => {
    try {
      const blob = await api.get<Blob>('/contacts/export', { responseType: 'blob' });
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

  const columns: Column<ContactRow>[] = [
    {
      key: 'avatar',
      label: '',
      padding: 'checkbox',
      render: (c) => <Avatar src={c.urlPicture ?? c.profilePicUrl} alt={c.name} />,
    },
    { key: 'name', label: t('contacts.name'), render: (c) => c.name },
    { key: 'number', label: t('contacts.number'), render: (c) => formatPhoneDisplay(c.number) },
    { key: 'email', label: t('contacts.email'), render: (c) => c.email },
    {
      key: 'lastInteraction',
      label: t('contacts.lastInteraction'),
      render: (c) => (c.updatedAt ? new Date(c.updatedAt).toLocaleString(i18n.language) : ''),
    },
  ];

  return (
    <ListPage
      texts="contacts"
      list={list}
      columns={columns}
      testId="contact"
      searchLabel={t('contacts.searchPlaceholder')}
      buttons={
        <>
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
        </>
      }
      leadingActions={[
        {
          key: 'openTicket',
          label: t('contacts.openTicket'),
          icon: <WhatsApp fontSize="small" />,
          onClick: setTicketFor,
        },
      ]}
      deletable={mayDelete}
      dialog={(props) => (
        <ContactDialog
          open={props.open}
          contact={props.record}
          onClose={props.onClose}
          onSaved={props.onSaved}
        />
      )}
      deleteMessage={t('tickets.deleteConfirm')}
      empty={t('contacts.empty')}
      banner={
        importing && (
          <Box sx={{ mb: 1 }}>
            <Typography variant="body2">{t('contacts.importing')}</Typography>
            <LinearProgress aria-label={t('contacts.importing')} />
          </Box>
        )
      }
    >
      <NewTicketDialog
        open={ticketFor !== null}
        contact={ticketFor}
        onClose={() => setTicketFor(null)}
      />
    </ListPage>
  );
}
