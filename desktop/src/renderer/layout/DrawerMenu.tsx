import AccountTreeOutlined from '@mui/icons-material/AccountTreeOutlined';
import AllInclusive from '@mui/icons-material/AllInclusive';
import AnnouncementOutlined from '@mui/icons-material/AnnouncementOutlined';
import AttachFile from '@mui/icons-material/AttachFile';
import CalendarToday from '@mui/icons-material/CalendarToday';
import CodeRounded from '@mui/icons-material/CodeRounded';
import ContactPhoneOutlined from '@mui/icons-material/ContactPhoneOutlined';
import DashboardOutlined from '@mui/icons-material/DashboardOutlined';
import DeviceHubOutlined from '@mui/icons-material/DeviceHubOutlined';
import EventAvailable from '@mui/icons-material/EventAvailable';
import ExpandLess from '@mui/icons-material/ExpandLess';
import ExpandMore from '@mui/icons-material/ExpandMore';
import ForumOutlined from '@mui/icons-material/ForumOutlined';
import HelpOutline from '@mui/icons-material/HelpOutlined';
import ListIcon from '@mui/icons-material/List';
import LocalOffer from '@mui/icons-material/LocalOffer';
import LocalAtm from '@mui/icons-material/LocalAtm';
import PeopleAltOutlined from '@mui/icons-material/PeopleAltOutlined';
import PeopleOutline from '@mui/icons-material/GroupOutlined';
import QuestionAnswerOutlined from '@mui/icons-material/QuestionAnswerOutlined';
import SettingsOutlined from '@mui/icons-material/SettingsOutlined';
import SyncAlt from '@mui/icons-material/SyncAlt';
import TableChart from '@mui/icons-material/TableChart';
import ViewKanban from '@mui/icons-material/ViewKanban';
import WhatsApp from '@mui/icons-material/WhatsApp';
import Badge from '@mui/material/Badge';
import Collapse from '@mui/material/Collapse';
import Divider from '@mui/material/Divider';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import Tooltip from '@mui/material/Tooltip';
import { useState, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router-dom';
import type { MenuEntry, MenuSections } from './menu';

const ICONS: Record<MenuEntry['key'], ReactElement> = {
  dashboard: <DashboardOutlined />,
  tickets: <WhatsApp />,
  kanban: <ViewKanban />,
  quickMessages: <QuestionAnswerOutlined />,
  todolist: <EventAvailable />,
  contacts: <ContactPhoneOutlined />,
  schedules: <CalendarToday />,
  tags: <LocalOffer />,
  chats: <ForumOutlined />,
  helps: <HelpOutline />,
  campaigns: <TableChart />,
  campaignsList: <ListIcon />,
  contactLists: <PeopleOutline />,
  campaignsConfig: <SettingsOutlined />,
  announcements: <AnnouncementOutlined />,
  prompts: <AllInclusive />,
  queueIntegration: <DeviceHubOutlined />,
  connections: <SyncAlt />,
  files: <AttachFile />,
  queues: <AccountTreeOutlined />,
  users: <PeopleAltOutlined />,
  messagesApi: <CodeRounded />,
  financeiro: <LocalAtm />,
  settings: <SettingsOutlined />,
};

export interface MenuBadges {
  connections: boolean;
  chats: boolean;
}

interface Props {
  sections: MenuSections;
  badges: MenuBadges;
  collapsed: boolean;
  onNavigate(): void;
}

/** The mini drawer shows icons only: labels stay for screen readers but are not drawn cut. */
const COLLAPSED_TEXT = { opacity: 0, whiteSpace: 'nowrap' } as const;

export function DrawerMenu({ sections, badges, collapsed, onNavigate }: Props) {
  const { t } = useTranslation();
  return (
    <>
      <List component="nav" aria-label={t('common.appName')}>
        {sections.main.map((item) => (
          <Item
            key={item.key}
            item={item}
            badges={badges}
            collapsed={collapsed}
            onNavigate={onNavigate}
          />
        ))}
      </List>
      {sections.admin.length > 0 && (
        <>
          <Divider />
          <List
            component="nav"
            aria-label={t('menu.administration')}
            subheader={
              collapsed ? undefined : (
                <ListSubheader component="div" sx={{ bgcolor: 'transparent' }}>
                  {t('menu.administration')}
                </ListSubheader>
              )
            }
          >
            {sections.admin.map((item) => (
              <Item
                key={item.key}
                item={item}
                badges={badges}
                collapsed={collapsed}
                onNavigate={onNavigate}
              />
            ))}
          </List>
        </>
      )}
    </>
  );
}

function Item({
  item,
  badges,
  collapsed,
  onNavigate,
  nested = false,
}: {
  item: MenuEntry;
  badges: MenuBadges;
  collapsed: boolean;
  onNavigate(): void;
  nested?: boolean;
}) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const [open, setOpen] = useState(false);
  const label = t(`menu.${item.key}`);
  const selected = item.to === '/' ? pathname === '/' : pathname.startsWith(item.to);
  let icon = ICONS[item.key];
  if (item.badge === 'connections' && badges.connections) {
    icon = (
      <Badge badgeContent="!" color="error" overlap="rectangular">
        {icon}
      </Badge>
    );
  } else if (item.badge === 'chats' && badges.chats) {
    icon = (
      <Badge variant="dot" color="secondary" overlap="rectangular">
        {icon}
      </Badge>
    );
  }

  if (item.children) {
    return (
      <>
        <ListItemButton onClick={() => setOpen((o) => !o)} aria-expanded={open}>
          <Tooltip title={collapsed ? label : ''} placement="right">
            <ListItemIcon>{icon}</ListItemIcon>
          </Tooltip>
          <ListItemText primary={label} sx={collapsed ? COLLAPSED_TEXT : undefined} />
          {open ? <ExpandLess /> : <ExpandMore />}
        </ListItemButton>
        <Collapse in={open} unmountOnExit>
          <List disablePadding>
            {item.children.map((child) => (
              <Item
                key={child.key}
                item={child}
                badges={badges}
                collapsed={collapsed}
                onNavigate={onNavigate}
                nested
              />
            ))}
          </List>
        </Collapse>
      </>
    );
  }

  return (
    <ListItemButton
      component={RouterLink}
      to={item.to}
      selected={selected}
      onClick={onNavigate}
      sx={nested && !collapsed ? { pl: 4 } : undefined}
    >
      <Tooltip title={collapsed ? label : ''} placement="right">
        <ListItemIcon>{icon}</ListItemIcon>
      </Tooltip>
      <ListItemText primary={label} sx={collapsed ? COLLAPSED_TEXT : undefined} />
    </ListItemButton>
  );
}
