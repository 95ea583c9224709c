import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import Edit from '@mui/icons-material/Edit';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import { useCompanyEvent } from '../../session/useRealtime';
import { toast } from '../../ui/toast';
import { useErrorToast } from '../../ui/useErrorToast';
import { ConfirmDialog } from '../../kit/ConfirmDialog';
import { PageHeader } from '../../kit/PageHeader';
import { removeById, upsertById } from '../../kit/scroll';
import { PageFrame, ScrollPaper } from '../../kit/ScrollPaper';
import { useSettings } from '../settings/useSettings';
import { QueueDialog } from './QueueDialog';
import type { Queue } from './types';
import './i18n';

/** Queues page (admin §2): id, name, colour, order, greeting, actions; live from queue events. */
export default function QueuesPage() {
  const { t } = useTranslation();
  const showError = useErrorToast();
  const { values: settings } = useSettings();
  const [queues, setQueues] = useState<Queue[]>([]);
  const [editing, setEditing] = useState<Queue | null>(null);
  const [open, setOpen] = useState(false);
  const [deleting, setDeleting] = useState<Queue | null>(null);

  useEffect(() => {
    api.get<Queue[]>('/queue').then(setQueues).catch(showError);
  }, [showError]);

  useCompanyEvent('queue', (payload) => {
    const event = payload as { action: string; queue?: Queue; queueId?: number };
    const { queue, queueId } = event;
    if ((event.action === 'create' || event.action === 'update') && queue) {
      setQueues((list) => upsertById(list, queue));
    }
    if (event.action === 'delete' && queueId) setQueues((list) => removeById(list, queueId));
  });

  const remove = async (queue: Queue) => {
    try {
      await api.delete(`/queue/${queue.id}`);
      setQueues((list) => removeById(list, queue.id));
      toast.success(t('queues.deleted'));
    } catch (error) {
      showError(error);
    }
  };

  return (
    <PageFrame>
      <PageHeader title={t('queues.title')}>
        <Button
          variant="contained"
          onClick={() => {
            setEditing(null);
            setOpen(true);
          }}
        >
          {t('queues.add')}
        </Button>
      </PageHeader>
      <ScrollPaper>
        <Table size="small" stickyHeader aria-label={t('queues.title')}>
          <TableHead>
            <TableRow>
              <TableCell align="center">{t('queues.id')}</TableCell>
              <TableCell>{t('queues.name')}</TableCell>
              <TableCell align="center">{t('queues.color')}</TableCell>
              <TableCell align="center">{t('queues.order')}</TableCell>
              <TableCell>{t('queues.greeting')}</TableCell>
              <TableCell align="center">{t('admin.actions')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {queues.map((q) => (
              <TableRow key={q.id} data-testid={`queue-${q.id}`}>
                <TableCell align="center">{q.id}</TableCell>
                <TableCell>{q.name}</TableCell>
                <TableCell align="center">
                  <Box
                    aria-label={q.color}
                    sx={{ width: 60, height: 20, mx: 'auto', borderRadius: 1, bgcolor: q.color }}
                  />
                </TableCell>
                <TableCell align="center">{q.orderQueue ?? ''}</TableCell>
                <TableCell sx={{ maxWidth: 300 }}>
                  <Box sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
                    {q.greetingMessage}
                  </Box>
                </TableCell>
                <TableCell align="center">
                  <IconButton
                    size="small"
                    aria-label={t('common.edit')}
                    onClick={() => {
                      setEditing(q);
                      setOpen(true);
                    }}
                  >
                    <Edit />
                  </IconButton>
                  <IconButton
                    size="small"
                    aria-label={t('common.delete')}
                    onClick={() => setDeleting(q)}
                  >
                    <DeleteOutlined />
                  </IconButton>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </ScrollPaper>
      <QueueDialog
        open={open}
        queue={editing}
        withSchedules={settings.scheduleType === 'queue'}
        onClose={() => setOpen(false)}
        onSaved={(queue) => setQueues((list) => upsertById(list, queue))}
      />
      <ConfirmDialog
        open={Boolean(deleting)}
        title={t('queues.deleteTitle', { name: deleting?.name ?? '' })}
        onClose={() => setDeleting(null)}
        onConfirm={() => deleting && remove(deleting)}
      />
    </PageFrame>
  );
}
