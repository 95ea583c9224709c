import {
  ANNOUNCEMENT_PRIORITY_COLORS,
  announcementEndpoints,
  type AnnouncementAnswer,
} from '@atende/shared';
import Campaign from '@mui/icons-material/Campaign';
import Box from '@mui/material/Box';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../api';
import { usePlatformEvent, useRealtime } from '../session/useRealtime';
import { TopBarPopover } from './TopBarPopover';
import '../pages/announcements/i18n';

const colorOf = (priority: number) =>
  ANNOUNCEMENT_PRIORITY_COLORS[priority as 1 | 2 | 3] ?? ANNOUNCEMENT_PRIORITY_COLORS[3];

/** Highest priority first, then the newest. */
const ordered = (list: AnnouncementAnswer[]) =>
  [...list].sort((a, b) => a.priority - b.priority || b.id - a.id);

/**
 * The announcements popover of the top bar, for every user (core §2): the active announcements
 * with their priority colours (1 red, 2 orange, 3 grey) and a dot until the popover is opened
 * (the read state is the user's, on the server). New and changed ones arrive live.
 */
export function AnnouncementsPopover() {
  const { t, i18n } = useTranslation();
  // Announcements are not in the change feed: reload on every (re)connect as well.
  const epoch = useRealtime((s) => s.resyncEpoch + s.connectedEpoch);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [items, setItems] = useState<AnnouncementAnswer[]>([]);
  const [unread, setUnread] = useState(0);

  useEffect(() => {
    api
      .call(announcementEndpoints.listAnnouncements, {
        query: { pageNumber: 1, searchParam: '' },
      })
      .then((answer) => setItems(ordered(answer.records.filter((a) => a.status))))
      .catch(() => undefined);
    api
      .call(announcementEndpoints.announcementsUnread)
      .then((answer) => setUnread(answer.unread))
      .catch(() => undefined);
  }, [epoch]);

  usePlatformEvent('announcement', (payload) => {
    const data = payload as { action: string; record?: AnnouncementAnswer; id?: number };
    if (data.action === 'delete') {
      setItems((list) => list.filter((a) => a.id !== data.id));
      return;
    }
    const record = data.record;
    if (!record) return;
    setItems((list) => ordered([record, ...list.filter((a) => a.id !== record.id)]));
    if (anchor) markRead();
    else setUnread((n) => n + 1);
  });

  const markRead = () => {
    setUnread(0);
    api
      .call(announcementEndpoints.readAnnouncements)
      .then((answer) => setUnread(answer.unread))
      .catch(() => undefined);
  };

  return (
    <TopBarPopover
      label={t('announcements.popover.open')}
      icon={<Campaign />}
      dot={unread > 0}
      dotColor="error"
      name="announcements"
      anchor={anchor}
      onOpen={(target) => {
        setAnchor(target);
        markRead();
      }}
      onClose={() => setAnchor(null)}
      width={360}
      maxHeight={460}
      empty={items.length === 0}
      emptyText={t('announcements.popover.empty')}
    >
      {items.map((a) => (
        <ListItem
          key={a.id}
          data-testid={`announcement-item-${a.id}`}
          data-priority={a.priority}
          alignItems="flex-start"
          sx={{ borderLeft: 6, borderColor: colorOf(a.priority), mb: 0.5 }}
        >
          <ListItemText
            primary={
              <Box sx={{ display: 'flex', gap: 1, alignItems: 'baseline' }}>
                <Typography sx={{ fontWeight: 700, color: colorOf(a.priority) }}>
                  {a.title}
                </Typography>
                <Typography variant="caption" color="text.secondary" sx={{ ml: 'auto' }}>
                  {new Date(a.createdAt).toLocaleDateString(i18n.language)}
                </Typography>
              </Box>
            }
            secondary={
              <>
                <Typography
                  component="span"
                  variant="body2"
                  sx={{ display: 'block', whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}
                >
                  {a.text}
                </Typography>
                {a.mediaUrl && (
                  <Box
                    component="img"
                    src={a.mediaUrl}
                    alt={a.mediaName ?? ''}
                    sx={{ display: 'block', maxWidth: '100%', maxHeight: 160, mt: 1 }}
                  />
                )}
              </>
            }
          />
        </ListItem>
      ))}
    </TopBarPopover>
  );
}
