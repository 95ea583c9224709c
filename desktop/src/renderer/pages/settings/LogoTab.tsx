import { isLogoFileName, logoEndpoints, LOGO_REFS, type LogoRef } from '@atende/shared';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Grid from '@mui/material/Grid';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import { getPlatform } from '../../platform';
import { toast } from '../../ui/toast';
import { useErrorToast } from '../../ui/useErrorToast';
import { applyUploadedIcons, forgetLogos, loadLogos } from '../login/logos';
import './i18n';

/**
 * The Logo tab's checks before sending (admin §5): a file ('Escolha um arquivo!'), a destination
 * ('Escolha um destino!'), PNG, ICO or SVG only. Answers the message key, or null when it may go.
 */
export function logoProblem(file: File | null, ref: string): string | null {
  if (!file) return 'superTabs.logo.chooseFile';
  if (!ref) return 'superTabs.logo.chooseDestination';
  if (!isLogoFileName(file.name)) return 'superTabs.logo.onlyTypes';
  return null;
}

/** Logo tab (admin §2): choose a file and a destination, upload; the current logos below. */
export function LogoTab() {
  const { t } = useTranslation();
  const showError = useErrorToast();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [ref, setRef] = useState<LogoRef | ''>('');
  const [busy, setBusy] = useState(false);
  const [current, setCurrent] = useState<Partial<Record<LogoRef, string | null>>>({});

  const refresh = () => {
    forgetLogos();
    void loadLogos().then((logos) => logos && setCurrent(logos));
  };
  useEffect(refresh, []);

  const upload = async () => {
    const problem = logoProblem(file, ref);
    if (problem || !file) {
      toast.error(t(problem ?? 'superTabs.logo.chooseFile'));
      return;
    }
    const body = new FormData();
    body.append('file', file, file.name);
    setBusy(true);
    try {
      const answer = await api.call(logoEndpoints.uploadLogo, { query: { ref }, body });
      if (answer.mensagem === 'Arquivo Anexado') toast.success(t('superTabs.logo.uploaded'));
      setFile(null);
      refresh();
      void applyUploadedIcons();
    } catch (error) {
      showError(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack spacing={3}>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        sx={{ alignItems: { sm: 'center' } }}
      >
        <Button variant="outlined" onClick={() => input.current?.click()}>
          {t('superTabs.logo.pick')}
        </Button>
        <Typography
          variant="body2"
          noWrap
          sx={{ minWidth: 0, flex: 1 }}
          data-testid="logo-file-name"
        >
          {file?.name ?? t('superTabs.logo.noFile')}
        </Typography>
        <input
          ref={input}
          type="file"
          hidden
          accept=".png,.ico,.svg,image/png,image/x-icon,image/svg+xml"
          data-testid="logo-input"
          onChange={(e) => {
            setFile(e.target.files?.[0] ?? null);
            e.target.value = '';
          }}
        />
        <TextField
          select
          size="small"
          label={t('superTabs.logo.destination')}
          value={ref}
          onChange={(e) => setRef(e.target.value as LogoRef)}
          sx={{ minWidth: 220 }}
          slotProps={{ select: { SelectDisplayProps: { 'data-testid': 'logo-ref' } as object } }}
        >
          {LOGO_REFS.map((r) => (
            <MenuItem key={r} value={r}>
              {t(`superTabs.logo.refs.${r}`)}
            </MenuItem>
          ))}
        </TextField>
        <Button variant="contained" onClick={upload} disabled={busy} data-testid="logo-upload">
          {t('superTabs.logo.upload')}
        </Button>
      </Stack>
      <Grid container spacing={2}>
        {LOGO_REFS.map((r) => (
          <Grid key={r} size={{ xs: 6, sm: 4, md: 2 }}>
            <Paper variant="outlined" sx={{ p: 1, textAlign: 'center', height: '100%' }}>
              <Typography variant="caption" component="p" noWrap>
                {t(`superTabs.logo.refs.${r}`)}
              </Typography>
              <Box
                sx={{
                  height: 72,
                  display: 'flex',
                  alignItems: 'center',
                  justifyContent: 'center',
                }}
              >
                {current[r] ? (
                  <Box
                    component="img"
                    src={getPlatform().resolveUrl(current[r])}
                    alt={t(`superTabs.logo.refs.${r}`)}
                    sx={{ maxHeight: 64, maxWidth: '100%' }}
                  />
                ) : (
                  <Typography variant="caption" color="text.secondary">
                    {t('superTabs.logo.none')}
                  </Typography>
                )}
              </Box>
            </Paper>
          </Grid>
        ))}
      </Grid>
    </Stack>
  );
}
