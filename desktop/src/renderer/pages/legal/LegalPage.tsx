import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';

export function LegalPage({ titleKey, bodyKey }: { titleKey: string; bodyKey: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Container maxWidth="md" sx={{ py: 6 }}>
      <Paper sx={{ p: 4 }}>
        <Typography variant="h4" component="h1" gutterBottom>
          {t(titleKey)}
        </Typography>
        <Typography sx={{ whiteSpace: 'pre-line' }}>{t(bodyKey)}</Typography>
        <Button sx={{ mt: 3 }} onClick={() => navigate(-1)}>
          {t('common.back')}
        </Button>
      </Paper>
    </Container>
  );
}
