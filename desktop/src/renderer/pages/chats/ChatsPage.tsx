import { chatEndpoints, type ChatAnswer } from '@atende/shared';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import Edit from '@mui/icons-material/Edit';
import Alert from '@mui/material/Alert';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { api } from '../../api';
import { ConfirmDialog, PageFrame, PageHeader } from '../../kit';
import { getPlatform } from '../../platform';
import { useSession } from '../../session/store';
import { useCompanyEvent, useRealtime } from '../../session/useRealtime';
import { ChatDialog } from './ChatDialog';
import { Conversation } from './Conversation';
import { NARROW_MAX_PX, unreachable, unreadsOf, upsertChat } from './rules';
import './i18n';

/** Chats read from the desktop cache when the server cannot be reached. */
const OFFLINE_CHATS_LIMIT = 200;

type ChatEvent =
  | { action: 'create' | 'update'; chat: ChatAnswer }
  | { action: 'new-message'; chat: ChatAnswer }
  | { action: 'delete'; id: number };

/** Internal chat (secondary §2): the chat list and the conversation; two tabs on narrow screens. */
export default function ChatsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { id: uuid } = useParams();
  const me = useSession((s) => s.user?.id);
  const narrow = useMediaQuery(`(max-width:${NARROW_MAX_PX - 0.05}px)`);
  const epoch = useRealtime((s) => s.resyncEpoch);
  const connectedEpoch = useRealtime((s) => s.connectedEpoch);
  const offlineChats = getPlatform().offlineChats;
  /** The server could not be reached: the list (and the conversation) come from the cache. */
  const [offline, setOffline] = useState(false);
  const [retry, setRetry] = useState(0);
  const [chats, setChats] = useState<ChatAnswer[]>([]);
  const [page, setPage] = useState(1);
  const [hasMore, setHasMore] = useState(false);
  const [loaded, setLoaded] = useState(false);
  const [tab, setTab] = useState<'chats' | 'messages'>(uuid ? 'messages' : 'chats');
  const [dialog, setDialog] = useState<{ chat: ChatAnswer | null } | null>(null);
  const [deleting, setDeleting] = useState<ChatAnswer | null>(null);
  const [opened, setOpened] = useState<ChatAnswer | null>(null);

  useEffect(() => {
    let live = true;
    api
      .call(chatEndpoints.listChats, { query: { pageNumber: page, searchParam: '' } })
      .then((answer) => {
        if (!live) return;
        setChats((list) => (page === 1 ? answer.records : answer.records.reduce(upsertChat, list)));
        setHasMore(answer.hasMore);
        setOffline(false);
      })
      .catch(async (error: unknown) => {
        // The desktop app reads its cache when the server is unreachable (read only).
        if (!offlineChats || !unreachable(error)) return;
        const cached = (await offlineChats.chats({ limit: OFFLINE_CHATS_LIMIT })) as ChatAnswer[];
        if (!live) return;
        setChats(cached);
        setHasMore(false);
        setOffline(true);
      })
      .catch(() => undefined)
      .finally(() => live && setLoaded(true));
    return () => {
      live = false;
    };
  }, [page, epoch, retry, offlineChats]);

  // Back online (the socket connected again): the list is read from the server again.
  useEffect(() => {
    if (offline) setRetry((n) => n + 1);
  }, [connectedEpoch]);

  const current = chats.find((c) => c.uuid === uuid) ?? (opened?.uuid === uuid ? opened : null);

  // A chat named by the address but not in the loaded pages.
  useEffect(() => {
    if (!uuid || !loaded || offline || chats.some((c) => c.uuid === uuid)) return;
    api
      .call(chatEndpoints.showChatByUuid, { params: { uuid } })
      .then(setOpened)
      .catch(() => navigate('/chats', { replace: true }));
  }, [uuid, loaded, offline, chats, navigate]);

  useEffect(() => {
    if (uuid) setTab('messages');
  }, [uuid]);

  useCompanyEvent('chat', (payload) => {
    const data = payload as ChatEvent;
    if (data.action === 'delete') {
      setChats((list) => list.filter((c) => c.id !== data.id));
      if (current?.id === data.id) navigate('/chats', { replace: true });
    } else if (data.chat) {
      // The conversation on screen is read as it arrives: its count stays at zero here.
      const chat =
        data.chat.uuid === uuid
          ? {
              ...data.chat,
              users: data.chat.users.map((u) => (u.userId === me ? { ...u, unreads: 0 } : u)),
            }
          : data.chat;
      setChats((list) => upsertChat(list, chat));
    }
  });

  const open = (chat: ChatAnswer) => {
    setChats((list) =>
      list.map((c) =>
        c.id === chat.id
          ? { ...c, users: c.users.map((u) => (u.userId === me ? { ...u, unreads: 0 } : u)) }
          : c,
      ),
    );
    navigate(`/chats/${chat.uuid}`);
  };

  const remove = async () => {
    if (!deleting) return;
    const chat = deleting;
    setDeleting(null);
    try {
      await api.call(chatEndpoints.deleteChat, { params: { id: chat.id } });
      setChats((list) => list.filter((c) => c.id !== chat.id));
      if (chat.uuid === uuid) navigate('/chats', { replace: true });
    } catch {
      // Chat request failures are silently ignored (secondary §8).
    }
  };

  const list = (
    <Paper variant="outlined" sx={{ height: '100%', display: 'flex', flexDirection: 'column' }}>
      {offline && (
        <Alert severity="warning" data-testid="chats-offline" sx={{ borderRadius: 0 }}>
          {t('chats.offline')}
        </Alert>
      )}
      <Box
        sx={{ flex: 1, minHeight: 0, overflowY: 'auto' }}
        onScroll={(e) => {
          const el = e.currentTarget;
          if (hasMore && el.scrollHeight - el.scrollTop - el.clientHeight < 100)
            setPage((p) => p + 1);
        }}
      >
        {loaded && chats.length === 0 && (
          <Typography sx={{ p: 2 }} color="text.secondary">
            {t('chats.empty')}
          </Typography>
        )}
        <List dense disablePadding data-testid="chat-list">
          {chats.map((chat) => {
            const unreads = unreadsOf(chat, me);
            const owner = chat.ownerId === me && !offline;
            return (
              <ListItemButton
                key={chat.id}
                selected={chat.uuid === uuid}
                onClick={() => open(chat)}
                data-testid={`chat-${chat.id}`}
                sx={{ pr: owner ? 11 : 2, position: 'relative' }}
              >
                <ListItemText
                  primary={
                    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                      <Typography noWrap sx={{ fontWeight: unreads ? 700 : 400, minWidth: 0 }}>
                        {chat.title}
                      </Typography>
                      {unreads > 0 && (
                        <Badge
                          badgeContent={unreads}
                          color="secondary"
                          max={999}
                          data-testid={`chat-unread-${chat.id}`}
                          aria-label={t('chats.unread', { count: unreads })}
                          sx={{ '& .MuiBadge-badge': { position: 'static', transform: 'none' } }}
                        />
                      )}
                    </Stack>
                  }
                  secondary={chat.lastMessage || t('chats.members', { count: chat.users.length })}
                  slotProps={{ secondary: { noWrap: true } }}
                />
                {owner && (
                  <Box sx={{ position: 'absolute', right: 4, top: '50%', translate: '0 -50%' }}>
                    <IconButton
                      size="small"
                      aria-label={t('chats.edit')}
                      onClick={(e) => {
                        e.stopPropagation();
                        setDialog({ chat });
                      }}
                    >
                      <Edit fontSize="small" />
                    </IconButton>
                    <IconButton
                      size="small"
                      aria-label={t('chats.delete')}
                      onClick={(e) => {
                        e.stopPropagation();
                        setDeleting(chat);
                      }}
                    >
                      <DeleteOutline fontSize="small" />
                    </IconButton>
                  </Box>
                )}
              </ListItemButton>
            );
          })}
        </List>
      </Box>
    </Paper>
  );

  const conversation = (
    <Paper variant="outlined" sx={{ height: '100%', overflow: 'hidden' }}>
      {current ? (
        <Conversation key={offline ? 'offline' : 'online'} chat={current} offline={offline} />
      ) : (
        <Stack sx={{ height: '100%', alignItems: 'center', justifyContent: 'center' }}>
          <Typography color="text.secondary">{t('chats.pick')}</Typography>
        </Stack>
      )}
    </Paper>
  );

  return (
    <PageFrame>
      <PageHeader title={t('chats.title')}>
        <Button variant="contained" disabled={offline} onClick={() => setDialog({ chat: null })}>
          {t('chats.new')}
        </Button>
      </PageHeader>
      {narrow ? (
        <Stack sx={{ flex: 1, minHeight: 0 }}>
          <Tabs
            value={tab}
            onChange={(_, v: 'chats' | 'messages') => setTab(v)}
            variant="fullWidth"
          >
            <Tab value="chats" label={t('chats.tabChats')} />
            <Tab value="messages" label={t('chats.tabMessages')} />
          </Tabs>
          <Box sx={{ flex: 1, minHeight: 0, pt: 1 }}>{tab === 'chats' ? list : conversation}</Box>
        </Stack>
      ) : (
        <Stack direction="row" spacing={1} sx={{ flex: 1, minHeight: 0 }}>
          <Box sx={{ width: '33%', minWidth: 240, maxWidth: 420 }}>{list}</Box>
          <Box sx={{ flex: 1, minWidth: 0 }}>{conversation}</Box>
        </Stack>
      )}
      <ChatDialog
        open={dialog !== null}
        chat={dialog?.chat ?? null}
        onClose={() => setDialog(null)}
        onSaved={(chat) => {
          setChats((list) => upsertChat(list, chat));
          if (!dialog?.chat) navigate(`/chats/${chat.uuid}`);
        }}
      />
      <ConfirmDialog
        open={deleting !== null}
        title={t('chats.deleteTitle', { name: deleting?.title ?? '' })}
        message={t('chats.deleteMessage')}
        onClose={() => setDeleting(null)}
        onConfirm={() => void remove()}
      />
    </PageFrame>
  );
}
