import Box from '@mui/material/Box';
import { useTranslation } from 'react-i18next';
import { ListPage, useResourceList, type Column } from '../../kit';
import { useSettings } from '../settings/useSettings';
import { QueueDialog } from './QueueDialog';
import type { Queue } from './types';
import './i18n';

/** Queues page (admin §2): id, name, colour, order, greeting, actions; live from queue events. */
export default function QueuesPage() {
  const { t } = useTranslation();
  const { values: settings } = useSettings();
  const list = useResourceList<Queue>({ path: '/queue', event: 'queue' });
  const columns: Column<Queue>[] = [
    { key: 'id', label: t('queues.id'), align: 'center', render: (q) => q.id },
    { key: 'name', label: t('queues.name'), render: (q) => q.name },
    {
      key: 'color',
      label: t('queues.color'),
      align: 'center',
      render: (q) => (
        <Box
          aria-label={q.color}
          sx={{ width: 60, height: 20, mx: 'auto', borderRadius: 1, bgcolor: q.color }}
        />
      ),
    },
    { key: 'order', label: t('queues.order'), align: 'center', render: (q) => q.orderQueue ?? '' },
    {
      key: 'greeting',
      label: t('queues.greeting'),
      cellSx: { maxWidth: 300 },
      render: (q) => (
        <Box sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
          {q.greetingMessage}
        </Box>
      ),
    },
  ];
  return (
    <ListPage
      texts="queues"
      list={list}
      columns={columns}
      testId="queue"
      dialog={(props) => (
        <QueueDialog {...props} withSchedules={settings.scheduleType === 'queue'} />
      )}
    />
  );
}
