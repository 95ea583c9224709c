import { LANGUAGES } from '@atende/shared';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';

const LABELS: Record<(typeof LANGUAGES)[number], string> = {
  'pt-BR': 'Português',
  en: 'English',
  es: 'Español',
};

export function LanguageSelect() {
  const { t, i18n } = useTranslation();
  return (
    <TextField
      select
      size="small"
      variant="standard"
      value={i18n.language}
      onChange={(e) => void i18n.changeLanguage(e.target.value)}
      slotProps={{ htmlInput: { 'aria-label': t('topbar.language') } }}
    >
      {LANGUAGES.map((lng) => (
        <MenuItem key={lng} value={lng}>
          {LABELS[lng]}
        </MenuItem>
      ))}
    </TextField>
  );
}
