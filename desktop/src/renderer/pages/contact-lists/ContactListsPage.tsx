import { can } from '@atende/shared';
import Download from '@mui/icons-material/Download';
import People from '@mui/icons-material/People';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { ListPage, useResourceList, type Column } from '../../kit';
import { useSession } from '../../session/store';
import { useCompanyEvent } from '../../session/useRealtime';
import { useErrorToast } from '../../ui/useErrorToast';
import { ContactListDialog, type ContactList } from './ContactListDialog';
import { downloadSample } from './download';
import './i18n';

/**
 * /contact-lists (secondary §2): search, name, contacts count, and per row the sample
 * spreadsheet, the list's contacts, edit and delete (delete only with
 * 'contacts-page:deleteContact'); infinite scroll; live through `company-{id}-ContactList`.
 */
export default function ContactListsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const showError = useErrorToast();
  const profile = useSession((s) => s.user?.profile);
  const list = useResourceList<ContactList>({
    path: '/contact-lists',
    rows: 'records',
    event: 'ContactList',
    item: 'record',
    id: 'id',
  });
  useCompanyEvent('ContactList', (payload) => {
    if ((payload as { action?: string }).action === 'reload') list.reload();
  });
  const columns: Column<ContactList>[] = [
    { key: 'name', label: t('contactLists.name'), render: (l) => l.name },
    {
      key: 'contactsCount',
      label: t('contactLists.contacts'),
      align: 'center',
      render: (l) => l.contactsCount,
    },
  ];
  const sample = () => void downloadSample().catch(showError);
  return (
    <ListPage
      texts="contactLists"
      list={list}
      columns={columns}
      testId="contact-list"
      deletable={!!profile && can(profile, 'contacts-page:deleteContact')}
      deleteMessage={t('contactLists.deleteMessage')}
      leadingActions={[
        {
          key: 'sample',
          label: t('contactLists.sample'),
          icon: <Download fontSize="small" />,
          onClick: sample,
        },
        {
          key: 'items',
          label: t('contactLists.openItems'),
          icon: <People fontSize="small" />,
          onClick: (l) => void navigate(`/contact-lists/${l.id}/contacts`),
        },
      ]}
      dialog={(props) => <ContactListDialog {...props} />}
    />
  );
}
