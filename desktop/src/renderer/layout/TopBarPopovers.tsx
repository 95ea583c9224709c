import { useChatNotifications } from '../notifications/useChatNotifications';
import { useSession } from '../session/store';
import { AnnouncementsPopover } from './AnnouncementsPopover';
import { ChatsPopover } from './ChatsPopover';

/**
 * The top bar's announcements and internal chats popovers (core §2), and the desktop
 * notification with sound for a new chat message. Rendered once, by the top bar.
 */
export function TopBarPopovers() {
  const plan = useSession((s) => s.plan);
  const chats = plan?.useInternalChat === true;
  useChatNotifications(chats);
  return (
    <>
      <AnnouncementsPopover />
      {chats && <ChatsPopover />}
    </>
  );
}
