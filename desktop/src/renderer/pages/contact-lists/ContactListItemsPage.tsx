import {
  can,
  contactListEndpoints,
  formatPhoneDisplay,
  type ContactListImportAnswer,
} from '@atende/shared';
import ArrowBack from '@mui/icons-material/ArrowBack';
import Cancel from '@mui/icons-material/Cancel';
import CheckCircle from '@mui/icons-material/CheckCircle';
import Download from '@mui/icons-material/Download';
import HelpOutline from '@mui/icons-material/HelpOutlined';
import UploadFile from '@mui/icons-material/UploadFile';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import Tooltip from '@mui/material/Tooltip';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { api } from '../../api';
import { ListPage, useResourceList, type Column } from '../../kit';
import { useSession } from '../../session/store';
import { useCompanyEvent } from '../../session/useRealtime';
import { useErrorToast } from '../../ui/useErrorToast';
import { ContactListItemDialog, type ContactListItem } from './ContactListItemDialog';
import { downloadFile, downloadSample } from './download';
import { ImportProgress } from './ImportProgress';
import './i18n';

/** Secondary §5: the import accepts .xls and .xlsx (and .csv, issue 16). */
export const SHEET_TYPES = '.xls,.xlsx,.csv';

type Job = ContactListImportAnswer;

function ValidIcon({ valid }: { valid: boolean | null }) {
  const { t } = useTranslation();
  const [title, icon] =
    valid === true
      ? [t('contactListItems.valid'), <CheckCircle key="v" color="success" fontSize="small" />]
      : valid === false
        ? [t('contactListItems.invalid'), <Cancel key="i" color="error" fontSize="small" />]
        : [
            t('contactListItems.unchecked'),
            <HelpOutline key="u" color="disabled" fontSize="small" />,
          ];
  return (
    <Tooltip title={title}>
      <Box component="span" aria-label={title} sx={{ display: 'inline-flex' }}>
        {icon}
      </Box>
    </Tooltip>
  );
}

/**
 * /contact-lists/{contactListId}/contacts (secondary §2): whatsapp-valid icon, name, number,
 * e-mail; back, import (file picker, then a confirmation with the sample link), add; the import
 * runs on the server and its progress shows above the table, live.
 */
export default function ContactListItemsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const showError = useErrorToast();
  const profile = useSession((s) => s.user?.profile);
  const contactListId = Number(useParams().contactListId);
  const [listName, setListName] = useState('');
  const [job, setJob] = useState<Job | null>(null);
  const [picked, setPicked] = useState<File | null>(null);
  const [sending, setSending] = useState(false);
  const picker = useRef<HTMLInputElement>(null);
  const list = useResourceList<ContactListItem>({
    path: '/contact-list-items',
    rows: 'contacts',
    query: { contactListId },
    event: 'ContactListItem',
    // Rows of other lists travel on the same channel: this page upserts its own below.
    item: 'recordOfThisList',
    id: 'id',
  });

  useEffect(() => {
    let live = true;
    api
      .call(contactListEndpoints.showContactList, { params: { id: contactListId } })
      .then((l) => live && setListName(l.name))
      .catch((error: unknown) => live && showError(error));
    api
      .call(contactListEndpoints.contactListImports, { params: { id: contactListId } })
      .then(([last]) => {
        if (live && last && (last.status === 'queued' || last.status === 'running')) setJob(last);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [contactListId, showError]);

  useCompanyEvent('ContactListItem', (payload) => {
    const p = payload as { action: string; contactListId: number; record?: ContactListItem };
    if (p.contactListId !== contactListId) return;
    const row = p.record;
    if (p.action === 'reload') list.reload();
    else if (p.action === 'create' && row) list.upsert(row);
    // An update (the number check filling the icon) changes a row shown; it never adds one.
    else if (p.action === 'update' && row) {
      list.patch((rows) => rows.map((r) => (r.id === row.id ? row : r)));
    }
  });
  useCompanyEvent('contactListImport', (payload) => {
    const record = (payload as { record?: Job }).record;
    if (!record || record.contactListId !== contactListId) return;
    setJob((current) => (!current || current.id <= record.id ? record : current));
  });

  const sendSheet = async () => {
    if (!picked) return;
    const form = new FormData();
    form.append('file', picked);
    setSending(true);
    try {
      const started = await api.call(contactListEndpoints.uploadContactList, {
        params: { id: contactListId },
        body: form,
      });
      setJob((current) => (current && current.id > started.id ? current : started));
      setPicked(null);
    } catch (error) {
      showError(error);
    } finally {
      setSending(false);
      if (picker.current) picker.current.value = '';
    }
  };

  const columns: Column<ContactListItem>[] = [
    {
      key: 'valid',
      label: '',
      padding: 'checkbox',
      align: 'center',
      render: (i) => <ValidIcon valid={i.isWhatsappValid} />,
    },
    { key: 'name', label: t('contactListItems.name'), render: (i) => i.name },
    {
      key: 'number',
      label: t('contactListItems.number'),
      render: (i) => formatPhoneDisplay(i.number),
    },
    { key: 'email', label: t('contactListItems.email'), render: (i) => i.email },
  ];

  return (
    <ListPage
      texts="contactListItems"
      list={list}
      columns={columns}
      testId="contact-list-item"
      deletable={!!profile && can(profile, 'contacts-page:deleteContact')}
      deleteMessage={t('contactListItems.deleteMessage')}
      buttons={
        <>
          <Button
            variant="outlined"
            startIcon={<ArrowBack />}
            onClick={() => void navigate('/contact-lists')}
          >
            {t('contactListItems.back')}
          </Button>
          <input
            ref={picker}
            type="file"
            accept={SHEET_TYPES}
            hidden
            data-testid="sheet-input"
            onChange={(e) => setPicked(e.target.files?.[0] ?? null)}
          />
          <Button
            variant="outlined"
            startIcon={<UploadFile />}
            disabled={sending || job?.status === 'queued' || job?.status === 'running'}
            onClick={() => picker.current?.click()}
          >
            {t('contactListItems.import')}
          </Button>
        </>
      }
      banner={
        <>
          {listName && (
            <Box sx={{ px: 2, pt: 1, color: 'text.secondary', fontSize: 14 }}>
              {t('contactListItems.titleOf', { name: listName })}
            </Box>
          )}
          {job && (
            <ImportProgress
              job={job}
              onClose={() => setJob(null)}
              onReport={() =>
                void downloadFile(
                  `/contact-lists/${contactListId}/imports/${job.id}/errors`,
                  `importacao-${job.id}-erros.csv`,
                ).catch(showError)
              }
            />
          )}
        </>
      }
      dialog={(props) => <ContactListItemDialog {...props} contactListId={contactListId} />}
    >
      <Dialog open={picked !== null} onClose={() => setPicked(null)} maxWidth="xs" fullWidth>
        <DialogTitle>{t('contactListItems.importTitle')}</DialogTitle>
        <DialogContent>
          <DialogContentText>
            {t('contactListItems.importMessage', { file: picked?.name ?? '' })}
          </DialogContentText>
          <Link
            component="button"
            type="button"
            sx={{ mt: 2, display: 'inline-flex', alignItems: 'center', gap: 0.5 }}
            onClick={() => void downloadSample().catch(showError)}
          >
            <Download fontSize="small" />
            {t('contactListItems.sample')}
          </Link>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setPicked(null)}>{t('common.cancel')}</Button>
          <Button variant="contained" disabled={sending} onClick={() => void sendSheet()}>
            {t('contactListItems.importConfirm')}
          </Button>
        </DialogActions>
      </Dialog>
    </ListPage>
  );
}
