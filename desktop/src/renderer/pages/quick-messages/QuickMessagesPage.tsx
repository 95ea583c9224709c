import { useTranslation } from 'react-i18next';
import { checkColumn, ListPage, useResourceList, type Column } from '../../kit';
import { useSession } from '../../session/store';
import { QuickMessageDialog } from './QuickMessageDialog';
import { canManage, type QuickMessage } from './rules';
import './i18n';

/** Quick messages page (secondary §2): shortcode, media name or 'Sem anexo', general icon. */
export default function QuickMessagesPage() {
  const { t } = useTranslation();
  const me = useSession((s) => s.user);
  const list = useResourceList<QuickMessage>({
    path: '/quick-messages',
    rows: 'records',
    event: 'quickmessage',
    item: 'record',
    id: 'id',
  });
  const columns: Column<QuickMessage>[] = [
    { key: 'shortcode', label: t('quickMessages.shortcode'), render: (q) => q.shortcode },
    {
      key: 'media',
      label: t('quickMessages.media'),
      render: (q) => q.mediaName ?? t('quickMessages.noMedia'),
    },
    checkColumn('geral', t('quickMessages.geral'), (q) => q.geral),
  ];
  return (
    <ListPage
      texts="quickMessages"
      list={list}
      columns={columns}
      testId="quick-message"
      rowName={(q) => q.shortcode}
      canManage={(q) => (me ? canManage(me.profile, me.id, q) : false)}
      dialog={(props) => <QuickMessageDialog {...props} />}
    />
  );
}
