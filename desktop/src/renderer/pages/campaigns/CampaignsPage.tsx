import Assessment from '@mui/icons-material/Assessment';
import PauseCircleOutline from '@mui/icons-material/PauseCircleOutlined';
import PlayCircleOutline from '@mui/icons-material/PlayCircleOutlined';
import Chip from '@mui/material/Chip';
import Tooltip from '@mui/material/Tooltip';
import { campaignEndpoints } from '@atende/shared';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { api } from '../../api';
import { ListPage, useResourceList, type Column } from '../../kit';
import { toast } from '../../ui/toast';
import { useErrorToast } from '../../ui/useErrorToast';
import { CampaignDialog } from './CampaignDialog';
import { editabilityOf, formatWhen, type Campaign } from './rules';
import './i18n';

const STATUS_COLOR = {
  INATIVA: 'default',
  PROGRAMADA: 'info',
  EM_ANDAMENTO: 'warning',
  CANCELADA: 'error',
  FINALIZADA: 'success',
} as const;

/** Campaigns (secondary §2): name, status, contact list, connection, scheduledAt, completedAt. */
export default function CampaignsPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const showError = useErrorToast();
  const list = useResourceList<Campaign>({
    path: '/campaigns',
    rows: 'records',
    event: 'campaign',
    item: 'record',
    id: 'id',
  });
  const act = async (c: Campaign, action: 'cancel' | 'restart') => {
    try {
      const endpoint =
        action === 'cancel' ? campaignEndpoints.cancelCampaign : campaignEndpoints.restartCampaign;
      const saved = await api.call(endpoint, { params: { id: c.id } });
      list.upsert(saved);
      toast.success(t(action === 'cancel' ? 'campaigns.cancelled' : 'campaigns.restarted'));
    } catch (error) {
      showError(error);
    }
  };
  const columns: Column<Campaign>[] = [
    { key: 'name', label: t('campaigns.name'), render: (c) => c.name },
    {
      key: 'status',
      label: t('campaigns.status'),
      align: 'center',
      render: (c) => {
        const chip = (
          <Chip
            size="small"
            color={STATUS_COLOR[c.status]}
            label={t(`campaigns.statuses.${c.status}`)}
            data-testid={`campaign-status-${c.id}`}
          />
        );
        return c.pausedReason ? (
          <Tooltip
            title={t('campaigns.paused', {
              reason: t(`campaigns.pausedReasons.${c.pausedReason}`),
            })}
          >
            {chip}
          </Tooltip>
        ) : (
          chip
        );
      },
    },
    {
      key: 'contactList',
      label: t('campaigns.contactList'),
      align: 'center',
      render: (c) => c.contactList?.name ?? t('campaigns.notDefined'),
    },
    {
      key: 'whatsapp',
      label: t('campaigns.whatsapp'),
      align: 'center',
      render: (c) => c.whatsapp?.name ?? t('campaigns.notDefined'),
    },
    {
      key: 'scheduledAt',
      label: t('campaigns.scheduledAt'),
      align: 'center',
      render: (c) => formatWhen(c.scheduledAt, i18n.language) || t('campaigns.notScheduled'),
    },
    {
      key: 'completedAt',
      label: t('campaigns.completedAt'),
      align: 'center',
      render: (c) => formatWhen(c.completedAt, i18n.language) || t('campaigns.notCompleted'),
    },
  ];
  return (
    <ListPage
      texts="campaigns"
      list={list}
      columns={columns}
      testId="campaign"
      // Editable when INATIVA, PROGRAMADA > 1 h ahead, or (messages) CANCELADA (secondary §4).
      canManage={(c) => editabilityOf(c) !== 'none' || c.status === 'FINALIZADA'}
      leadingActions={[
        {
          key: 'report',
          label: t('campaigns.report'),
          icon: <Assessment />,
          onClick: (c) => navigate(`/campaign/${c.id}/report`),
        },
        {
          key: 'cancel',
          label: t('campaigns.cancel'),
          icon: <PauseCircleOutline />,
          show: (c) => c.status === 'EM_ANDAMENTO' || c.status === 'PROGRAMADA',
          onClick: (c) => void act(c, 'cancel'),
        },
        {
          key: 'restart',
          label: t('campaigns.restart'),
          icon: <PlayCircleOutline />,
          show: (c) => c.status === 'CANCELADA',
          onClick: (c) => void act(c, 'restart'),
        },
      ]}
      dialog={(props) => <CampaignDialog {...props} />}
    />
  );
}
