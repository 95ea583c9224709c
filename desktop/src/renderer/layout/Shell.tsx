import ChevronLeft from '@mui/icons-material/ChevronLeft';
import Box from '@mui/material/Box';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { DRAWER_WIDTH, NARROW_BREAKPOINT, shellLayout } from '@atende/shared';
import { Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router-dom';
import { useMessageNotifications } from '../notifications/useMessageNotifications';
import { PageLoader } from '../routes/guards';
import { campaignsVisible } from '../session/storage';
import { useSession } from '../session/store';
import { useRealtimeConnection } from '../session/useRealtime';
import { DrawerMenu } from './DrawerMenu';
import { menuFor } from './menu';
import { ProtocolBanner } from './ProtocolBanner';
import { TopBar } from './TopBar';
import { useConnectionsWarning, useUnreadChats, useVersion } from './useShellData';
import { useLogo } from '../pages/login/logos';

/** Width of the permanent drawer when collapsed: icons only. */
const MINI_DRAWER_WIDTH = 56;

/**
 * The app shell of core §2: a 240 px drawer (open by default above 1200 px, an overlay under
 * 600 px, the version at its bottom) beside the top bar and the page.
 */
export default function Shell() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const user = useSession((s) => s.user);
  const plan = useSession((s) => s.plan);
  const narrow = useMediaQuery(`(max-width:${NARROW_BREAKPOINT - 0.05}px)`);
  const [open, setOpen] = useState(() => shellLayout(window.innerWidth).drawerOpenByDefault);
  useRealtimeConnection();
  useMessageNotifications();

  const sections = useMemo(
    () => (user ? menuFor(user, plan, { campaigns: campaignsVisible() }) : { main: [], admin: [] }),
    [user, plan],
  );
  const isAdmin = sections.admin.length > 0;
  const badges = {
    connections: useConnectionsWarning(isAdmin),
    chats: useUnreadChats(plan?.useInternalChat === true, pathname),
  };
  const version = useVersion();
  /** The 'interno' logo of the super user's Logo tab, at the top of the menu once uploaded. */
  const internalLogo = useLogo('interno');
  const collapsed = !narrow && !open;
  const width = collapsed ? MINI_DRAWER_WIDTH : DRAWER_WIDTH;

  const content = (
    <Box sx={{ display: 'flex', flexDirection: 'column', height: '100%' }}>
      <Toolbar variant="dense" sx={{ justifyContent: 'flex-end', minHeight: 48, gap: 1 }}>
        {!collapsed && internalLogo && (
          <Box
            component="img"
            src={internalLogo}
            alt=""
            data-testid="internal-logo"
            sx={{ maxHeight: 36, maxWidth: 160, mr: 'auto', objectFit: 'contain' }}
          />
        )}
        {!collapsed && (
          <IconButton aria-label={t('topbar.closeMenu')} onClick={() => setOpen(false)}>
            <ChevronLeft />
          </IconButton>
        )}
      </Toolbar>
      <Box sx={{ flexGrow: 1, overflowY: 'auto', overflowX: 'hidden' }}>
        <DrawerMenu
          sections={sections}
          badges={badges}
          collapsed={collapsed}
          onNavigate={() => narrow && setOpen(false)}
        />
      </Box>
      {!collapsed && version && (
        <Typography
          variant="caption"
          color="text.secondary"
          sx={{ p: 1.5, textAlign: 'center' }}
          data-testid="app-version"
        >
          {t('menu.version', { version })}
        </Typography>
      )}
    </Box>
  );

  return (
    <Box sx={{ display: 'flex', height: '100dvh', overflow: 'hidden' }}>
      {narrow ? (
        <Drawer
          variant="temporary"
          open={open}
          onClose={() => setOpen(false)}
          slotProps={{ paper: { sx: { width: DRAWER_WIDTH } } }}
          data-testid="drawer"
        >
          {content}
        </Drawer>
      ) : (
        <Drawer
          variant="permanent"
          open={open}
          data-testid="drawer"
          sx={{ width, flexShrink: 0, transition: 'width 150ms' }}
          slotProps={{
            paper: {
              sx: {
                width,
                overflowX: 'hidden',
                transition: 'width 150ms',
                boxSizing: 'border-box',
              },
            },
          }}
        >
          {content}
        </Drawer>
      )}
      <Box sx={{ flexGrow: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
        <TopBar onToggleDrawer={() => setOpen((o) => !o)} />
        <ProtocolBanner />
        <Box component="main" sx={{ flexGrow: 1, minHeight: 0, overflow: 'auto' }}>
          <Suspense fallback={<PageLoader />}>
            <Outlet />
          </Suspense>
        </Box>
      </Box>
    </Box>
  );
}
