import Brightness4 from '@mui/icons-material/Brightness4';
import Brightness7 from '@mui/icons-material/Brightness7';
import MenuIcon from '@mui/icons-material/Menu';
import Refresh from '@mui/icons-material/Refresh';
import AppBar from '@mui/material/AppBar';
import IconButton from '@mui/material/IconButton';
import Toolbar from '@mui/material/Toolbar';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { TIME_ZONE_SETTING, can, dueDateWarningDays } from '@atende/shared';
import { useTranslation } from 'react-i18next';
import { Link } from '../components/Link';
import { useSession } from '../session/store';
import { usePrefs } from '../ui/prefs';
import { AccountMenu } from './AccountMenu';
import { TopBarPopovers } from './TopBarPopovers';
import { VolumeControl } from './VolumeControl';

export function formatDueDate(dueDate: string, lang: string): string {
  const date = new Date(dueDate);
  return Number.isNaN(date.getTime())
    ? dueDate
    : date.toLocaleDateString(lang, { timeZone: 'UTC' });
}

export function TopBar({ onToggleDrawer }: { onToggleDrawer(): void }) {
  const { t, i18n } = useTranslation();
  const user = useSession((s) => s.user);
  const theme = usePrefs((s) => s.theme);
  const toggleTheme = usePrefs((s) => s.toggleTheme);
  if (!user) return null;

  const dueDate = user.company?.dueDate;
  const zone = user.company?.settings?.find((s) => s.key === TIME_ZONE_SETTING)?.value;
  const warningDays = dueDate ? dueDateWarningDays(dueDate, Date.now(), zone) : null;
  const greeting =
    dueDate && can(user.profile, 'dashboard:view')
      ? t('topbar.greetingDue', {
          name: user.name,
          company: user.company.name,
          date: formatDueDate(dueDate, i18n.language),
        })
      : t('topbar.greeting', { name: user.name, company: user.company?.name ?? '' });

  return (
    <AppBar position="static" elevation={1} color="primary" enableColorOnDark>
      <Toolbar variant="dense" sx={{ gap: 1 }}>
        <IconButton
          edge="start"
          color="inherit"
          aria-label={t('topbar.openMenu')}
          onClick={onToggleDrawer}
        >
          <MenuIcon />
        </IconButton>
        <Typography noWrap sx={{ flexGrow: 1, minWidth: 0 }} component="p" data-testid="greeting">
          {warningDays !== null ? (
            <Link
              to="/subscription"
              role="alert"
              underline="hover"
              sx={{ fontWeight: 700, color: 'warning.light' }}
            >
              {t('topbar.subscriptionWarning', { count: warningDays })}
            </Link>
          ) : (
            greeting
          )}
        </Typography>
        <Tooltip title={t('topbar.toggleTheme')}>
          <IconButton color="inherit" aria-label={t('topbar.toggleTheme')} onClick={toggleTheme}>
            {theme === 'dark' ? <Brightness7 /> : <Brightness4 />}
          </IconButton>
        </Tooltip>
        <VolumeControl />
        <Tooltip title={t('topbar.refresh')}>
          <IconButton
            color="inherit"
            aria-label={t('topbar.refresh')}
            onClick={() => window.location.reload()}
          >
            <Refresh />
          </IconButton>
        </Tooltip>
        <TopBarPopovers />
        <AccountMenu />
      </Toolbar>
    </AppBar>
  );
}
