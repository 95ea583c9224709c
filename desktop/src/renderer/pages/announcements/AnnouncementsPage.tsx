import { ANNOUNCEMENT_PRIORITY_COLORS, type AnnouncementAnswer } from '@atende/shared';
import Chip from '@mui/material/Chip';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { checkColumn, ListPage, useResourceList, type Column } from '../../kit';
import { useSession } from '../../session/store';
import { usePlatformEvent } from '../../session/useRealtime';
import { toast } from '../../ui/toast';
import { AnnouncementDialog } from './AnnouncementDialog';
import './i18n';

/** Secondary §9: redirect delay after a refusal. */
export const ANNOUNCEMENTS_REDIRECT_MS = 1_000;

export function PriorityChip({ priority }: { priority: number }) {
  const { t } = useTranslation();
  const color = ANNOUNCEMENT_PRIORITY_COLORS[priority as 1 | 2 | 3] ?? '#9e9e9e';
  return (
    <Chip
      size="small"
      label={t(`announcements.priorities.${priority}`)}
      sx={{ bgcolor: color, color: '#fff', fontWeight: 600 }}
    />
  );
}

function SuperOnlyAnnouncements() {
  const { t } = useTranslation();
  const list = useResourceList<AnnouncementAnswer>({ path: '/announcements', rows: 'records' });
  // Others' changes arrive as the platform event (active ones); own saves update the list.
  usePlatformEvent('announcement', (payload) => {
    const data = payload as { action: string; record?: AnnouncementAnswer; id?: number };
    if (data.action !== 'delete' && data.record) list.upsert(data.record);
  });
  const columns: Column<AnnouncementAnswer>[] = [
    { key: 'title', label: t('announcements.titleColumn'), render: (a) => a.title },
    {
      key: 'priority',
      label: t('announcements.priority'),
      align: 'center',
      render: (a) => <PriorityChip priority={a.priority} />,
    },
    {
      key: 'media',
      label: t('announcements.media'),
      render: (a) => a.mediaName ?? t('announcements.noMedia'),
    },
    checkColumn('status', t('announcements.status'), (a) => a.status),
  ];
  return (
    <ListPage
      texts="announcements"
      list={list}
      columns={columns}
      testId="announcement"
      rowName={(a) => a.title}
      dialog={(props) => <AnnouncementDialog {...props} />}
    />
  );
}

/** Announcements (secondary §2): the super user only; others see the error and go to / in 1 s. */
export default function AnnouncementsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const user = useSession((s) => s.user);
  const allowed = user?.super === true;
  useEffect(() => {
    if (!user || allowed) return;
    toast.error(t('announcements.noPermission'));
    const timer = setTimeout(() => navigate('/', { replace: true }), ANNOUNCEMENTS_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [user, allowed, navigate, t]);
  return allowed ? <SuperOnlyAnnouncements /> : null;
}
