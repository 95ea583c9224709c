import { queueIntegrationEndpoints as endpoints, type DeliveryAnswer } from '@atende/shared';
import Replay from '@mui/icons-material/Replay';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import { ResourceTable, type Column } from '../../kit';
import { toast } from '../../ui/toast';
import { useErrorToast } from '../../ui/useErrorToast';
import './i18n';

/**
 * Webhook and n8n deliveries that used up their retries (or that the receiver refused): each
 * can be sent again, with the same `webhook-id`, from the start of the retry schedule.
 */
export function DeadLetters({ open, onClose }: { open: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const showError = useErrorToast();
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const [rows, setRows] = useState<DeliveryAnswer[]>([]);
  const [page, setPage] = useState(1);
  const [hasMore, setHasMore] = useState(false);
  const [loading, setLoading] = useState(false);

  const load = useCallback(
    async (pageNumber: number) => {
      setLoading(true);
      try {
        const answer = await api.call(endpoints.listDeliveries, {
          query: { status: 'dead', pageNumber },
        });
        setRows((before) =>
          pageNumber === 1 ? answer.deliveries : [...before, ...answer.deliveries],
        );
        setHasMore(answer.hasMore);
        setPage(pageNumber);
      } catch (error) {
        showError(error);
      } finally {
        setLoading(false);
      }
    },
    [showError],
  );

  useEffect(() => {
    if (open) void load(1);
  }, [open, load]);

  const columns: Column<DeliveryAnswer>[] = [
    {
      key: 'integration',
      label: t('queueIntegration.dead.integration'),
      render: (d) => d.integrationName,
    },
    {
      key: 'ticket',
      label: t('queueIntegration.dead.ticket'),
      align: 'center',
      render: (d) => d.ticketId ?? '',
    },
    {
      key: 'attempts',
      label: t('queueIntegration.dead.attempts'),
      align: 'center',
      render: (d) => d.attempts,
    },
    {
      key: 'error',
      label: t('queueIntegration.dead.error'),
      cellSx: { maxWidth: 320, wordBreak: 'break-word' },
      render: (d) => d.lastError ?? '',
    },
    {
      key: 'when',
      label: t('queueIntegration.dead.when'),
      render: (d) => new Date(d.updatedAt).toLocaleString(),
    },
  ];

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="lg" fullScreen={phone}>
      <DialogTitle>{t('queueIntegration.dead.title')}</DialogTitle>
      <DialogContent dividers sx={{ p: 0, display: 'flex', minHeight: 240 }}>
        <ResourceTable
          label={t('queueIntegration.dead.title')}
          rows={rows}
          columns={columns}
          rowTestId={(d) => `dead-letter-${d.id}`}
          loading={loading}
          empty={t('queueIntegration.dead.empty')}
          onEnd={() => hasMore && !loading && void load(page + 1)}
          actions={[
            {
              key: 'replay',
              label: t('queueIntegration.dead.replay'),
              icon: <Replay />,
              onClick: async (d) => {
                try {
                  await api.call(endpoints.replayDelivery, { params: { id: d.id } });
                  setRows((before) => before.filter((r) => r.id !== d.id));
                  toast.success(t('queueIntegration.dead.replayed'));
                } catch (error) {
                  showError(error);
                }
              },
            },
          ]}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('queueIntegration.dead.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
