import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

export default function UnderConstruction() {
  const { t } = useTranslation();
  return (
    <Paper sx={{ p: 4, m: 2 }} variant="outlined">
      <Typography color="text.secondary">{t('common.underConstruction')}</Typography>
    </Paper>
  );
}
