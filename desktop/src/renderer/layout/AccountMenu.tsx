import AccountCircle from '@mui/icons-material/AccountCircle';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { LANGUAGES } from '@atende/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useSession } from '../session/store';
import { ProfileDialog } from './ProfileDialog';

const LANGUAGE_LABELS = { 'pt-BR': 'Português', en: 'English', es: 'Español' } as const;

/** Account menu: who is signed in, their profile, language, logout (which goes to /login). */
export function AccountMenu() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const user = useSession((s) => s.user);
  const logout = useSession((s) => s.logout);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [profile, setProfile] = useState(false);
  const close = () => setAnchor(null);
  return (
    <>
      <IconButton
        color="inherit"
        aria-label={t('topbar.account')}
        aria-haspopup="menu"
        onClick={(e) => setAnchor(e.currentTarget)}
      >
        <AccountCircle />
      </IconButton>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={close}>
        <MenuItem disabled>
          <ListItemText primary={user?.name} secondary={user?.email} />
        </MenuItem>
        <MenuItem
          onClick={() => {
            close();
            setProfile(true);
          }}
        >
          {t('profile.menu')}
        </MenuItem>
        <Divider />
        {LANGUAGES.map((lng) => (
          <MenuItem
            key={lng}
            selected={i18n.language === lng}
            onClick={() => {
              void i18n.changeLanguage(lng);
              close();
            }}
          >
            {LANGUAGE_LABELS[lng]}
          </MenuItem>
        ))}
        <Divider />
        <MenuItem
          onClick={async () => {
            close();
            await logout();
            navigate('/login', { replace: true });
          }}
        >
          {t('topbar.logout')}
        </MenuItem>
      </Menu>
      <ProfileDialog open={profile} onClose={() => setProfile(false)} />
    </>
  );
}
