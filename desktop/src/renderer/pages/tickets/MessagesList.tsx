import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Divider from '@mui/material/Divider';
import { useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { Message } from '../../api/types';
import { MessageBubble } from './MessageBubble';
import { OLDER_PAGE_THRESHOLD_PX, threadRows } from './messages';

interface Props {
  messages: Message[];
  loading: boolean;
  onLoadOlder(): void;
  readOnly?: boolean;
  onReply?(message: Message): void;
  onEdit?(message: Message): void;
  onDelete?(message: Message): void;
}

const dateLabel = (iso: string, lang: string) =>
  new Date(iso).toLocaleDateString(lang, { day: '2-digit', month: '2-digit', year: 'numeric' });

/** The thread; scrolling within 50 px of the top loads the previous page. */
export function MessagesList({
  messages,
  loading,
  onLoadOlder,
  readOnly,
  onReply,
  onEdit,
  onDelete,
}: Props) {
  const { t, i18n } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  const anchor = useRef<{ first?: string | number; height: number; atBottom: boolean }>({
    height: 0,
    atBottom: true,
  });
  const content = useRef<HTMLDivElement>(null);
  const rows = useMemo(() => threadRows(messages), [messages]);

  // Keep the reading position when older messages are prepended; follow new ones at the bottom.
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const first = messages[0]?.id;
    const previous = anchor.current;
    if (previous.first !== undefined && first !== previous.first && !previous.atBottom) {
      element.scrollTop += element.scrollHeight - previous.height;
    } else if (previous.atBottom) {
      element.scrollTop = element.scrollHeight;
    }
    anchor.current = { first, height: element.scrollHeight, atBottom: previous.atBottom };
  }, [messages]);

  // Images, audio and video load after their rows render and grow the thread: a thread read at
  // its bottom stays there (the load events are caught on the way down; ResizeObserver covers
  // anything else that changes the height).
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const stick = () => {
      if (anchor.current.atBottom) element.scrollTop = element.scrollHeight;
      anchor.current.height = element.scrollHeight;
    };
    element.addEventListener('load', stick, true);
    element.addEventListener('loadedmetadata', stick, true);
    const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(stick) : null;
    if (content.current) observer?.observe(content.current);
    return () => {
      element.removeEventListener('load', stick, true);
      element.removeEventListener('loadedmetadata', stick, true);
      observer?.disconnect();
    };
  }, []);

  return (
    <Box
      ref={ref}
      role="log"
      aria-busy={loading}
      onScroll={(e) => {
        const element = e.currentTarget;
        const atBottom = element.scrollHeight - element.scrollTop - element.clientHeight < 40;
        // A scroll caused by content growing under a thread read at its bottom (the browser's
        // scroll anchoring) is not the reader leaving the bottom.
        const grew = element.scrollHeight > anchor.current.height;
        if (grew && anchor.current.atBottom && !atBottom) element.scrollTop = element.scrollHeight;
        else anchor.current.atBottom = atBottom;
        anchor.current.height = element.scrollHeight;
        if (element.scrollTop < OLDER_PAGE_THRESHOLD_PX) onLoadOlder();
      }}
      sx={{ flex: 1, minHeight: 0, overflowY: 'auto', py: 1, bgcolor: 'action.hover' }}
    >
      {loading && (
        <Box sx={{ display: 'flex', justifyContent: 'center', p: 1 }}>
          <CircularProgress size={20} aria-label={t('messages.loadingOlder')} />
        </Box>
      )}
      <div ref={content}>
        {rows.map((row) => {
          switch (row.kind) {
            case 'day':
              return (
                <Box key={row.key} sx={{ display: 'flex', justifyContent: 'center', my: 1 }}>
                  <Chip size="small" label={dateLabel(row.date, i18n.language)} />
                </Box>
              );
            case 'ticket-ended':
            case 'ticket-started':
              return (
                <Divider key={row.key} sx={{ my: 1, fontSize: 12, color: 'text.secondary' }}>
                  {t(
                    row.kind === 'ticket-ended'
                      ? 'messages.conversationEnded'
                      : 'messages.conversationStarted',
                    {
                      date: new Date(row.date).toLocaleString(i18n.language),
                    },
                  )}
                </Divider>
              );
            case 'message':
              return (
                <MessageBubble
                  key={row.key}
                  message={row.message}
                  readOnly={readOnly}
                  onReply={onReply}
                  onEdit={onEdit}
                  onDelete={onDelete}
                />
              );
          }
        })}
      </div>
    </Box>
  );
}
