import Add from '@mui/icons-material/Add';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  CAMPAIGN_GREATER_INTERVAL_OPTIONS,
  CAMPAIGN_INTERVAL_OPTIONS,
  CAMPAIGN_LONGER_AFTER_OPTIONS,
  CAMPAIGN_SETTING_DEFAULTS,
  campaignEndpoints,
  type CampaignSettingsValues,
} from '@atende/shared';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import { PageFrame, PageHeader } from '../../kit';
import { toast } from '../../ui/toast';
import { useErrorToast } from '../../ui/useErrorToast';
import './i18n';

type Values = CampaignSettingsValues;

/** The stored settings (values as JSON text, Whaticket's shape) over the defaults of §9. */
function parseSettings(rows: { key: string; value: string }[]): Values {
  const out: Values = { ...CAMPAIGN_SETTING_DEFAULTS, variables: [] };
  for (const { key, value } of rows) {
    try {
      (out as Record<string, unknown>)[key] = JSON.parse(value);
    } catch {
      // Keep the default.
    }
  }
  return out;
}

/** /campaigns-config (secondary §9): the dispatch intervals and the custom variables. */
export default function CampaignSettingsPage() {
  const { t } = useTranslation();
  const showError = useErrorToast();
  const [values, setValues] = useState<Values | null>(null);
  const [key, setKey] = useState('');
  const [value, setValue] = useState('');

  useEffect(() => {
    api
      .call(campaignEndpoints.listCampaignSettings)
      .then((rows) => setValues(parseSettings(rows)), showError);
  }, [showError]);

  if (!values) return <LinearProgress />;
  const seconds = (n: number) =>
    n === 0 ? t('campaignSettings.noInterval') : t('campaignSettings.seconds', { n });
  const select = (
    name: 'messageInterval' | 'longerIntervalAfter' | 'greaterInterval',
    options: readonly number[],
    label: (n: number) => string,
  ) => (
    <TextField
      select
      fullWidth
      label={t(`campaignSettings.${name}`)}
      value={String(values[name])}
      onChange={(e) => setValues({ ...values, [name]: Number(e.target.value) })}
      slotProps={{ htmlInput: { 'data-testid': `settings-${name}` } }}
    >
      {options.map((n) => (
        <MenuItem key={n} value={String(n)}>
          {label(n)}
        </MenuItem>
      ))}
    </TextField>
  );
  const addVariable = () => {
    const k = key.trim();
    if (!k || !value.trim()) return;
    // A custom variable is added only if new (secondary §5).
    if (values.variables.some((v) => v.key === k)) {
      toast.error(t('campaignSettings.variableExists'));
      return;
    }
    setValues({ ...values, variables: [...values.variables, { key: k, value }] });
    setKey('');
    setValue('');
  };
  const save = async () => {
    try {
      const rows = await api.call(campaignEndpoints.saveCampaignSettings, {
        body: { settings: values },
      });
      setValues(parseSettings(rows));
      toast.success(t('campaignSettings.saved'));
    } catch (error) {
      showError(error);
    }
  };

  return (
    <PageFrame>
      <PageHeader title={t('campaignSettings.title')}>
        <Button variant="contained" onClick={() => void save()} data-testid="settings-save">
          {t('campaignSettings.save')}
        </Button>
      </PageHeader>
      <Stack spacing={2} sx={{ overflowY: 'auto', pb: 2 }}>
        <Paper variant="outlined" sx={{ p: 2 }}>
          <Typography variant="subtitle1" gutterBottom>
            {t('campaignSettings.intervals')}
          </Typography>
          <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
            {select('messageInterval', CAMPAIGN_INTERVAL_OPTIONS, seconds)}
            {select('longerIntervalAfter', CAMPAIGN_LONGER_AFTER_OPTIONS, (n) =>
              n === 0 ? t('campaignSettings.notDefined') : t('campaignSettings.messages', { n }),
            )}
            {select('greaterInterval', CAMPAIGN_GREATER_INTERVAL_OPTIONS, seconds)}
          </Stack>
          <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 1 }}>
            {t('campaignSettings.help')}
          </Typography>
        </Paper>
        <Paper variant="outlined" sx={{ p: 2 }}>
          <Typography variant="subtitle1" gutterBottom>
            {t('campaignSettings.variables')}
          </Typography>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ mb: 1 }}>
            <TextField
              size="small"
              label={t('campaignSettings.key')}
              value={key}
              onChange={(e) => setKey(e.target.value.replace(/[^\p{L}\p{N}_]/gu, ''))}
              slotProps={{ htmlInput: { 'data-testid': 'variable-key', maxLength: 40 } }}
            />
            <TextField
              size="small"
              fullWidth
              label={t('campaignSettings.value')}
              value={value}
              onChange={(e) => setValue(e.target.value)}
              slotProps={{ htmlInput: { 'data-testid': 'variable-value', maxLength: 1000 } }}
            />
            <Button startIcon={<Add />} onClick={addVariable} data-testid="variable-add">
              {t('campaignSettings.addVariable')}
            </Button>
          </Stack>
          {values.variables.map((v) => (
            <Stack key={v.key} direction="row" spacing={1} sx={{ alignItems: 'center' }}>
              <Typography variant="body2" sx={{ fontFamily: 'monospace', minWidth: 120 }}>
                {`{${v.key}}`}
              </Typography>
              <Typography variant="body2" sx={{ flex: 1, minWidth: 0 }} noWrap>
                {v.value}
              </Typography>
              <IconButton
                aria-label={t('campaignSettings.removeVariable')}
                onClick={() =>
                  setValues({
                    ...values,
                    variables: values.variables.filter((x) => x.key !== v.key),
                  })
                }
              >
                <DeleteOutlined />
              </IconButton>
            </Stack>
          ))}
        </Paper>
      </Stack>
    </PageFrame>
  );
}
