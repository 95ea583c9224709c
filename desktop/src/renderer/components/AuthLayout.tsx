import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageSelect } from './LanguageSelect';

/** The frame of the public pages: product name, a title and the form. */
export function AuthLayout({
  title,
  children,
  logo,
}: {
  title: string;
  children: ReactNode;
  /** An uploaded logo (Logo tab) shown instead of the product name. */
  logo?: string | null;
}) {
  const { t } = useTranslation();
  return (
    <Container component="main" maxWidth="xs" sx={{ py: 6 }}>
      <Paper sx={{ p: 4 }} elevation={3}>
        <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center' }}>
          {logo ? (
            <Box
              component="img"
              src={logo}
              alt={t('common.appName')}
              data-testid="auth-logo"
              sx={{ maxHeight: 64, maxWidth: '70%', objectFit: 'contain' }}
            />
          ) : (
            <Typography variant="h4" component="p" color="primary" sx={{ fontWeight: 700 }}>
              {t('common.appName')}
            </Typography>
          )}
          <LanguageSelect />
        </Box>
        <Typography variant="h5" component="h1" sx={{ mt: 2, mb: 2 }}>
          {title}
        </Typography>
        {children}
      </Paper>
    </Container>
  );
}
