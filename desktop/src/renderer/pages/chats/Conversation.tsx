import {
  CHAT_MESSAGES_PAGE_SIZE,
  chatEndpoints,
  type ChatAnswer,
  type InternalChatMessageAnswer,
} from '@atende/shared';
import Send from '@mui/icons-material/Send';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import { useChatUnread } from '../../layout/chatUnread';
import { getPlatform } from '../../platform';
import { useSession } from '../../session/store';
import { useCompanyEvent } from '../../session/useRealtime';
import { OLDER_MESSAGES_THRESHOLD_PX, unreachable } from './rules';
import './i18n';

type Message = InternalChatMessageAnswer;

function timeOf(iso: string, lang: string): string {
  const date = new Date(iso);
  const today = new Date().toDateString() === date.toDateString();
  return today
    ? date.toLocaleTimeString(lang, { hour: '2-digit', minute: '2-digit' })
    : date.toLocaleString(lang, {
        day: '2-digit',
        month: '2-digit',
        year: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
      });
}

/** Merges pages and live messages, oldest first, each id once. */
const merged = (a: Message[], b: Message[]) => {
  const byId = new Map([...a, ...b].map((m) => [m.id, m]));
  return [...byId.values()].sort((x, y) => x.id - y.id);
};

/**
 * One chat's thread: the newest page first, older pages when scrolled under 600 px from the top
 * (secondary §9), new messages live; opening it (and each message seen while open) clears the
 * caller's unread count through the read call. With `offline` (the desktop app, server
 * unreachable) the thread comes from the cache, read only: no read call, no sending.
 */
export function Conversation({ chat, offline = false }: { chat: ChatAnswer; offline?: boolean }) {
  const { t, i18n } = useTranslation();
  const me = useSession((s) => s.user?.id);
  const [messages, setMessages] = useState<Message[]>([]);
  const [page, setPage] = useState(1);
  const [hasMore, setHasMore] = useState(false);
  const [loading, setLoading] = useState(false);
  const [text, setText] = useState('');
  const scroller = useRef<HTMLDivElement>(null);
  /** Distance from the bottom to keep when older messages are put on top. */
  const anchor = useRef<number | null>(null);
  const stickToBottom = useRef(true);
  const chatId = chat.id;
  const offlineChats = getPlatform().offlineChats;
  /** Read from the cache: the page found the server unreachable, or this thread did. */
  const [cacheOnly, setCacheOnly] = useState(offline && !!offlineChats);
  /** The oldest message shown, where the cache's next page starts. */
  const oldest = useRef<number | undefined>(undefined);
  oldest.current = messages[0]?.id;

  const markRead = () =>
    !cacheOnly &&
    void api
      .call(chatEndpoints.readChat, { params: { id: chatId }, body: {} })
      // The answer is the chat as read: the shell's dot follows it even if the event was missed.
      .then((read) => {
        if (me !== undefined) useChatUnread.getState().put([read], me);
      })
      .catch(() => {
        // Chat request failures are silently ignored (secondary §8).
      });

  useEffect(() => {
    setMessages([]);
    setPage(1);
    setHasMore(false);
    stickToBottom.current = true;
    markRead();
  }, [chatId]);

  useEffect(() => {
    let live = true;
    setLoading(true);
    const load =
      cacheOnly && offlineChats
        ? offlineChats
            .messages({
              chatId,
              limit: CHAT_MESSAGES_PAGE_SIZE,
              ...(page > 1 && oldest.current ? { before: oldest.current } : {}),
            })
            .then((rows) => ({
              records: (rows as Message[]).reverse(),
              hasMore: rows.length === CHAT_MESSAGES_PAGE_SIZE,
            }))
        : api.call(chatEndpoints.listChatMessages, {
            params: { id: chatId },
            query: { pageNumber: page },
          });
    load
      .then((answer) => {
        if (!live) return;
        const el = scroller.current;
        if (el && page > 1) anchor.current = el.scrollHeight - el.scrollTop;
        setMessages((list) => merged(answer.records, list));
        setHasMore(answer.hasMore);
      })
      .catch((error: unknown) => {
        // The server went away: the desktop app shows what its cache holds.
        if (live && !cacheOnly && offlineChats && unreachable(error)) {
          setPage(1);
          setCacheOnly(true);
        }
      })
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [chatId, page, cacheOnly, offlineChats]);

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    if (anchor.current !== null) {
      el.scrollTop = el.scrollHeight - anchor.current;
      anchor.current = null;
    } else if (stickToBottom.current) el.scrollTop = el.scrollHeight;
  }, [messages]);

  useCompanyEvent('chat', (payload) => {
    const data = payload as { action: string; newMessage?: Message; chat?: { id: number } };
    if (data.action !== 'new-message' || data.chat?.id !== chatId || !data.newMessage) return;
    const el = scroller.current;
    stickToBottom.current = !el || el.scrollHeight - el.scrollTop - el.clientHeight < 80;
    setMessages((list) => merged(list, [data.newMessage!]));
    if (data.newMessage.senderId !== me) markRead();
  });

  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    stickToBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 80;
    if (el.scrollTop < OLDER_MESSAGES_THRESHOLD_PX && hasMore && !loading) setPage((p) => p + 1);
  };

  const send = async () => {
    if (cacheOnly) return;
    const message = text.trim();
    // Empty messages are not sent (secondary §5).
    if (!message) return;
    setText('');
    stickToBottom.current = true;
    try {
      const saved = await api.call(chatEndpoints.sendChatMessage, {
        params: { id: chatId },
        body: { message },
      });
      setMessages((list) => merged(list, [saved]));
    } catch {
      setText(message);
    }
  };

  return (
    <Stack sx={{ height: '100%', minHeight: 0 }} data-testid="chat-conversation">
      <Box sx={{ px: 2, py: 1, borderBottom: 1, borderColor: 'divider' }}>
        <Typography variant="subtitle1" noWrap data-testid="chat-heading">
          {chat.title}
        </Typography>
        <Typography variant="caption" color="text.secondary" noWrap component="p">
          {chat.users.map((u) => u.user.name).join(', ')}
        </Typography>
      </Box>
      <Box
        ref={scroller}
        onScroll={onScroll}
        data-testid="chat-messages"
        sx={{ flex: 1, minHeight: 0, overflowY: 'auto', px: 2, py: 1, bgcolor: 'action.hover' }}
      >
        {loading && page > 1 && (
          <Box sx={{ textAlign: 'center', py: 1 }}>
            <CircularProgress size={20} />
          </Box>
        )}
        {!loading && messages.length === 0 && (
          <Typography color="text.secondary" sx={{ p: 2, textAlign: 'center' }}>
            {t('chats.noMessages')}
          </Typography>
        )}
        {messages.map((m) => {
          const mine = m.senderId === me;
          return (
            <Box
              key={m.id}
              data-testid="chat-message"
              sx={{ display: 'flex', justifyContent: mine ? 'flex-end' : 'flex-start', my: 0.5 }}
            >
              <Paper
                elevation={0}
                sx={{
                  px: 1.5,
                  py: 0.75,
                  maxWidth: '80%',
                  bgcolor: mine ? 'primary.main' : 'background.paper',
                  color: mine ? 'primary.contrastText' : 'text.primary',
                  borderRadius: 2,
                }}
              >
                {!mine && (
                  <Typography variant="caption" sx={{ fontWeight: 700, display: 'block' }}>
                    {m.sender?.name ?? '—'}
                  </Typography>
                )}
                <Typography
                  variant="body2"
                  sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}
                >
                  {m.message}
                </Typography>
                <Typography
                  variant="caption"
                  sx={{ display: 'block', textAlign: 'right', opacity: 0.75 }}
                >
                  {timeOf(m.createdAt, i18n.language)}
                </Typography>
              </Paper>
            </Box>
          );
        })}
      </Box>
      {cacheOnly && (
        <Alert severity="warning" data-testid="chat-offline-send" sx={{ borderRadius: 0 }}>
          {t('chats.offlineSend')}
        </Alert>
      )}
      <Stack direction="row" spacing={1} sx={{ p: 1, alignItems: 'flex-end' }}>
        <TextField
          fullWidth
          disabled={cacheOnly}
          size="small"
          multiline
          maxRows={5}
          placeholder={t('chats.placeholder')}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey) {
              e.preventDefault();
              void send();
            }
          }}
          slotProps={{ htmlInput: { 'data-testid': 'chat-input', maxLength: 10_000 } }}
        />
        <IconButton
          color="primary"
          aria-label={t('chats.send')}
          disabled={cacheOnly}
          onClick={() => void send()}
        >
          <Send />
        </IconButton>
      </Stack>
    </Stack>
  );
}
