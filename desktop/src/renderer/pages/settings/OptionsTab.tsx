import { COMPANY_SETTING_DEFAULTS, GLOBAL_SETTING_DEFAULTS } from '@atende/shared';
import Grid from '@mui/material/Grid';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import { toast } from '../../ui/toast';
import { useErrorToast } from '../../ui/useErrorToast';
import './i18n';

/** The per-company switches of admin §3 (values enabled or disabled). */
export const COMPANY_SWITCHES = [
  'userRating',
  'call',
  'CheckMsgIsGroup',
  'sendGreetingAccepted',
  'sendMsgTransfTicket',
  'sendGreetingMessageOneQueues',
  'sendReadReceipts',
] as const;
const INTEGRATION_FIELDS = [
  ['ixc', ['ipixc', 'tokenixc']],
  ['mkauth', ['ipmkauth', 'clientidmkauth', 'clientsecretmkauth']],
  ['asaasTitle', ['asaas']],
] as const;

type Values = Record<string, string>;
const defaults: Values = { ...COMPANY_SETTING_DEFAULTS, ...GLOBAL_SETTING_DEFAULTS };

interface Props {
  values: Values;
  isSuper: boolean;
  onSaved(key: string, value: string): void;
}

/** Options tab: every change is saved at once with 'Atualizando...' then a success toast. */
export function OptionsTab({ values, isSuper, onSaved }: Props) {
  const { t } = useTranslation();
  const showError = useErrorToast();
  const value = (key: string) => values[key] ?? defaults[key] ?? '';

  const save = async (key: string, next: string) => {
    toast.info(t('settings.updating'));
    try {
      await api.put(`/settings/${key}`, { value: next });
      onSaved(key, next);
      toast.success(t('settings.updated'));
    } catch (error) {
      showError(error);
    }
  };

  const choice = (key: string, options: readonly string[], label: (o: string) => string) => (
    <Grid size={{ xs: 12, sm: 6, md: 4 }} key={key}>
      <TextField
        select
        fullWidth
        size="small"
        label={t(`settings.keys.${key}`)}
        value={value(key)}
        onChange={(e) => save(key, e.target.value)}
        slotProps={{
          select: { SelectDisplayProps: { 'data-testid': `setting-${key}` } as object },
        }}
      >
        {options.map((o) => (
          <MenuItem key={o} value={o}>
            {label(o)}
          </MenuItem>
        ))}
      </TextField>
    </Grid>
  );
  const onOff = (key: string) => choice(key, ['enabled', 'disabled'], (o) => t(`settings.${o}`));

  return (
    <Stack spacing={3}>
      {isSuper && (
        <section>
          <Typography variant="subtitle1" sx={{ mb: 1 }}>
            {t('settings.global')}
          </Typography>
          <Grid container spacing={2}>
            {onOff('allowregister')}
            {onOff('viewregister')}
            {choice('trial', ['1', '2', '3', '4', '5', '6', '7'], (o) => o)}
          </Grid>
        </section>
      )}
      <Grid container spacing={2}>
        {onOff('userRating')}
        {choice('scheduleType', ['disabled', 'queue', 'company'], (o) =>
          t(`settings.scheduleTypes.${o}`),
        )}
        {COMPANY_SWITCHES.filter((k) => k !== 'userRating').map(onOff)}
        {choice('chatBotType', ['text'], (o) => t(`settings.chatBotTypes.${o}`))}
      </Grid>
      <section>
        <Typography variant="subtitle1" sx={{ mb: 1 }}>
          {t('settings.integrations')}
        </Typography>
        <Grid container spacing={2}>
          {INTEGRATION_FIELDS.flatMap(([, keys]) =>
            keys.map((key) => (
              <Grid size={{ xs: 12, sm: 6, md: 4 }} key={key}>
                <TextSetting
                  label={t(`settings.fields.${key}`)}
                  value={value(key)}
                  onSave={(next) => save(key, next)}
                />
              </Grid>
            )),
          )}
        </Grid>
      </section>
    </Stack>
  );
}

/** A text setting is saved when it loses focus, and only if it changed. */
function TextSetting(props: { label: string; value: string; onSave(value: string): void }) {
  const [draft, setDraft] = useState(props.value);
  useEffect(() => setDraft(props.value), [props.value]);
  return (
    <TextField
      fullWidth
      size="small"
      label={props.label}
      value={draft}
      onChange={(e) => setDraft(e.target.value)}
      onBlur={() => draft !== props.value && props.onSave(draft)}
    />
  );
}
