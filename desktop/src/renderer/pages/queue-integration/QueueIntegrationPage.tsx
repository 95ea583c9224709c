import AccountTree from '@mui/icons-material/AccountTree';
import Forum from '@mui/icons-material/Forum';
import SmartToy from '@mui/icons-material/SmartToy';
import Webhook from '@mui/icons-material/Webhook';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import type { ReactNode } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListPage, useResourceList, type Column, type ResourceList } from '../../kit';
import { DeadLetters } from './DeadLetters';
import { usePlanGate } from '../../routes/planGate';
import { QueueIntegrationDialog, type QueueIntegration } from './QueueIntegrationDialog';
import './i18n';

const ICONS: Record<QueueIntegration['type'], ReactNode> = {
  dialogflow: <SmartToy color="primary" />,
  n8n: <AccountTree sx={{ color: '#ea4b71' }} />,
  webhook: <Webhook color="secondary" />,
  typebot: <Forum sx={{ color: '#0042da' }} />,
};

/** The row without a secret a create brought (it is shown once, never kept in the list). */
const withoutSecret = ({ webhookSecret: _secret, ...row }: QueueIntegration) => row;

/** The search box's text is lowercased (secondary §2). */
const lowercased = <T extends { id: number }>(list: ResourceList<T>): ResourceList<T> => ({
  ...list,
  setSearch: (value: string) => list.setSearch(value.toLowerCase()),
});

function Integrations() {
  const { t } = useTranslation();
  const list = useResourceList<QueueIntegration>({
    path: '/queueIntegration/',
    rows: 'queueIntegrations',
    event: 'queueIntegration',
    item: 'queueIntegration',
    id: 'integrationId',
    adopt: withoutSecret,
  });
  const [secret, setSecret] = useState<string | null>(null);
  const [dead, setDead] = useState(false);
  const columns: Column<QueueIntegration>[] = [
    {
      key: 'type',
      label: t('queueIntegration.type'),
      align: 'center',
      padding: 'checkbox',
      render: (row) => (
        <Tooltip title={t(`queueIntegration.types.${row.type}`)}>
          <span aria-label={row.type} data-type={row.type} style={{ display: 'inline-flex' }}>
            {ICONS[row.type]}
          </span>
        </Tooltip>
      ),
    },
    { key: 'id', label: t('queueIntegration.id'), align: 'center', render: (row) => row.id },
    { key: 'name', label: t('queueIntegration.name'), render: (row) => row.name },
  ];
  return (
    <ListPage
      texts="queueIntegration"
      title={t('queueIntegration.title', { count: list.items.length })}
      list={lowercased(list)}
      columns={columns}
      testId="queue-integration"
      deleteMessage={t('queueIntegration.deleteMessage')}
      buttons={
        <Button variant="outlined" onClick={() => setDead(true)}>
          {t('queueIntegration.deadLetters')}
        </Button>
      }
      dialog={(props) => <QueueIntegrationDialog {...props} />}
      onSaved={(saved) => saved.webhookSecret && setSecret(saved.webhookSecret)}
    >
      <Dialog open={secret !== null} onClose={() => setSecret(null)} fullWidth maxWidth="sm">
        <DialogTitle>{t('queueIntegration.dialog.secret')}</DialogTitle>
        <DialogContent>
          <Alert severity="warning" sx={{ mb: 2 }}>
            {t('queueIntegration.dialog.secretOnce')}
          </Alert>
          <TextField
            fullWidth
            value={secret ?? ''}
            slotProps={{
              input: { readOnly: true },
              htmlInput: { 'data-testid': 'webhook-secret' },
            }}
            onFocus={(e) => e.target.select()}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setSecret(null)}>{t('queueIntegration.dead.close')}</Button>
        </DialogActions>
      </Dialog>
      <DeadLetters open={dead} onClose={() => setDead(false)} />
    </ListPage>
  );
}

/** Queue integrations page (secondary §2): only for a plan with useIntegrations. */
export default function QueueIntegrationPage() {
  const allowed = usePlanGate('useIntegrations');
  return allowed ? <Integrations /> : null;
}
