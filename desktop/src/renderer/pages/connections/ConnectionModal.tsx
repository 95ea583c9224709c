import { nameSchema, WHATSAPP_DEFAULTS, whatsappFields } from '@atende/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { useEffect, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { api } from '../../api';
import { toast } from '../../ui/toast';
import { useErrorToast } from '../../ui/useErrorToast';
import { requiredText, useAdminFieldError } from '../../kit/validation';
import type { Connection } from './types';
import './i18n';

/** The connection rules of admin §5; an empty name reads 'Required'. */
export const connectionForm = whatsappFields.extend({ name: requiredText(nameSchema) });
type FormIn = z.input<typeof connectionForm>;
type FormOut = z.output<typeof connectionForm>;

interface Option {
  id: number;
  name: string;
}
const NO_PROMPTS: Option[] = [];

const empty = (): FormIn => ({
  name: '',
  isDefault: false,
  greetingMessage: '',
  complationMessage: '',
  outOfHoursMessage: '',
  ratingMessage: '',
  token: '',
  provider: WHATSAPP_DEFAULTS.provider,
  queueIds: [],
  transferQueueId: '',
  timeToTransfer: 0,
  promptId: '',
  expiresTicket: WHATSAPP_DEFAULTS.expiresTicket,
  expiresInactiveMessage: '',
  timeUseBotQueues: WHATSAPP_DEFAULTS.timeUseBotQueues,
  maxUseBotQueues: WHATSAPP_DEFAULTS.maxUseBotQueues,
});

const fromConnection = (c: Connection): FormIn => ({
  name: c.name,
  isDefault: c.isDefault,
  greetingMessage: c.greetingMessage ?? '',
  complationMessage: c.complationMessage ?? '',
  outOfHoursMessage: c.outOfHoursMessage ?? '',
  ratingMessage: c.ratingMessage ?? '',
  token: c.token ?? '',
  provider: c.provider,
  queueIds: c.queues.map((q) => q.id),
  transferQueueId: c.transferQueueId ?? '',
  timeToTransfer: c.timeToTransfer ?? 0,
  promptId: c.promptId ?? '',
  expiresTicket: c.expiresTicket ?? 0,
  expiresInactiveMessage: c.expiresInactiveMessage ?? '',
  timeUseBotQueues: c.timeUseBotQueues ?? 0,
  maxUseBotQueues: c.maxUseBotQueues ?? 3,
});

interface Props {
  open: boolean;
  connection: Connection | null;
  simulator: boolean;
  onClose(): void;
  onSaved(connection: Connection): void;
}

/** Adds or edits a connection with every field of admin §2 and its defaults. */
export function ConnectionModal({ open, connection, simulator, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  const fieldError = useAdminFieldError();
  const showError = useErrorToast();
  const [queues, setQueues] = useState<Option[]>([]);
  // Prompts come with the AI feature (/prompt does not exist yet): until then only 'none'.
  const prompts: Option[] = NO_PROMPTS;
  const form = useForm<FormIn, unknown, FormOut>({
    resolver: zodResolver(connectionForm),
    defaultValues: empty(),
  });
  const { register, control, handleSubmit, reset, formState } = form;
  const { errors, isSubmitting } = formState;

  useEffect(() => {
    if (!open) return;
    reset(connection ? fromConnection(connection) : empty());
    api.get<Option[]>('/queue').then(setQueues).catch(showError);
  }, [open, connection, reset, showError]);

  const onSubmit = handleSubmit(async (values) => {
    try {
      const saved = connection
        ? await api.put<Connection>(`/whatsapp/${connection.id}`, values)
        : await api.post<Connection>('/whatsapp', values);
      toast.success(t('connections.saved'));
      onSaved(saved);
      onClose();
    } catch (error) {
      showError(error);
    }
  });

  const text = (name: keyof FormIn, multiline = false) => (
    <TextField
      {...register(name)}
      label={t(`connections.modal.${name}`)}
      fullWidth
      multiline={multiline}
      minRows={multiline ? 2 : undefined}
      error={Boolean(errors[name])}
      helperText={fieldError(errors[name]?.message)}
    />
  );
  const number = (name: keyof FormIn) => (
    <TextField
      {...register(name)}
      type="number"
      label={t(`connections.modal.${name}`)}
      fullWidth
      error={Boolean(errors[name])}
      helperText={fieldError(errors[name]?.message)}
      slotProps={{ htmlInput: { min: 0 } }}
    />
  );
  const select = (name: 'transferQueueId' | 'promptId', options: Option[]) => (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <TextField
          select
          fullWidth
          label={t(`connections.modal.${name === 'promptId' ? 'prompt' : 'transferQueue'}`)}
          value={field.value ?? ''}
          onChange={(e) => field.onChange(e.target.value)}
        >
          <MenuItem value="">{t('connections.modal.none')}</MenuItem>
          {options.map((o) => (
            <MenuItem key={o.id} value={o.id}>
              {o.name}
            </MenuItem>
          ))}
        </TextField>
      )}
    />
  );

  return (
    <Dialog open={open} onClose={onClose} maxWidth="md" fullWidth scroll="paper">
      <DialogTitle>
        {t(connection ? 'connections.modal.editTitle' : 'connections.modal.addTitle')}
      </DialogTitle>
      <form noValidate onSubmit={onSubmit}>
        <DialogContent dividers>
          <Stack spacing={2}>
            <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
              {text('name')}
              <Controller
                control={control}
                name="isDefault"
                render={({ field }) => (
                  <FormControlLabel
                    label={t('connections.modal.isDefault')}
                    control={
                      <Switch
                        checked={Boolean(field.value)}
                        onChange={(e) => field.onChange(e.target.checked)}
                      />
                    }
                  />
                )}
              />
            </Stack>
            {text('greetingMessage', true)}
            {text('complationMessage', true)}
            {text('outOfHoursMessage', true)}
            {text('ratingMessage', true)}
            {text('token')}
            <Controller
              control={control}
              name="provider"
              render={({ field }) => (
                <TextField
                  select
                  fullWidth
                  label={t('connections.modal.provider')}
                  value={field.value ?? 'beta'}
                  onChange={(e) => field.onChange(e.target.value)}
                >
                  <MenuItem value="beta">{t('connections.modal.providerBeta')}</MenuItem>
                  {(simulator || field.value === 'simulator') && (
                    <MenuItem value="simulator">
                      {t('connections.modal.providerSimulator')}
                    </MenuItem>
                  )}
                </TextField>
              )}
            />
            <Controller
              control={control}
              name="queueIds"
              render={({ field }) => (
                <TextField
                  select
                  fullWidth
                  label={t('connections.modal.queues')}
                  value={(field.value as number[] | undefined) ?? []}
                  onChange={(e) => field.onChange(e.target.value as unknown as number[])}
                  slotProps={{ select: { multiple: true } }}
                >
                  {queues.map((q) => (
                    <MenuItem key={q.id} value={q.id}>
                      {q.name}
                    </MenuItem>
                  ))}
                </TextField>
              )}
            />
            <Stack direction="row" spacing={2}>
              {select('transferQueueId', queues)}
              {number('timeToTransfer')}
            </Stack>
            {select('promptId', prompts)}
            <Stack direction="row" spacing={2}>
              {number('expiresTicket')}
              {number('timeUseBotQueues')}
              {number('maxUseBotQueues')}
            </Stack>
            {text('expiresInactiveMessage', true)}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={isSubmitting}>
            {t('common.save')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
