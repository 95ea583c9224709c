import { chatEndpoints, type ChatAnswer } from '@atende/shared';
import Forum from '@mui/icons-material/Forum';
import ListItemButton from '@mui/material/ListItemButton';
import Badge from '@mui/material/Badge';
import ListItemText from '@mui/material/ListItemText';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { api } from '../api';
import { getPlatform } from '../platform';
import { useSession } from '../session/store';
import { anyUnread, useChatUnread } from './chatUnread';
import { TopBarPopover } from './TopBarPopover';
import '../pages/chats/i18n';

/**
 * The internal chats popover of the top bar (core §2): the user's chats with their unread
 * counts; opening one goes to /chats/{uuid} with a full page load (in the browser; the desktop
 * app keeps its window and changes route).
 */
export function ChatsPopover() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const me = useSession((s) => s.user?.id);
  const unread = useChatUnread((s) => anyUnread(s.byChat));
  const counts = useChatUnread((s) => s.byChat);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [chats, setChats] = useState<ChatAnswer[] | null>(null);

  const open = (target: HTMLElement) => {
    setAnchor(target);
    const askedAt = useChatUnread.getState().seq;
    api
      .call(chatEndpoints.listChats, { query: { pageNumber: 1, searchParam: '' } })
      .then((answer) => {
        setChats(answer.records);
        if (me !== undefined) useChatUnread.getState().load(answer.records, me, askedAt);
      })
      .catch(() => setChats([]));
  };

  const go = (chat: ChatAnswer) => {
    setAnchor(null);
    if (getPlatform().kind === 'desktop') navigate(`/chats/${chat.uuid}`);
    else window.location.assign(`/chats/${chat.uuid}`);
  };

  return (
    <TopBarPopover
      label={t('chats.popover.open')}
      icon={<Forum />}
      dot={unread}
      dotColor="secondary"
      name="chats"
      anchor={anchor}
      onOpen={open}
      onClose={() => setAnchor(null)}
      width={320}
      maxHeight={400}
      empty={chats?.length === 0}
      emptyText={t('chats.popover.empty')}
    >
      {chats?.map((chat) => {
        const n = counts[chat.id] ?? 0;
        return (
          <ListItemButton key={chat.id} onClick={() => go(chat)}>
            <ListItemText
              primary={chat.title}
              secondary={chat.lastMessage}
              slotProps={{
                primary: { noWrap: true, sx: { fontWeight: n ? 700 : 400 } },
                secondary: { noWrap: true },
              }}
            />
            {n > 0 && <Badge badgeContent={n} color="secondary" max={999} sx={{ ml: 2 }} />}
          </ListItemButton>
        );
      })}
      <ListItemButton
        onClick={() => {
          setAnchor(null);
          navigate('/chats');
        }}
      >
        <ListItemText
          primary={t('chats.popover.all')}
          slotProps={{ primary: { color: 'primary', align: 'center' } }}
        />
      </ListItemButton>
    </TopBarPopover>
  );
}
