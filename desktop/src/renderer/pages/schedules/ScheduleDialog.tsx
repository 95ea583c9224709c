import { zodResolver } from '@hookform/resolvers/zod';
import {
  contactEndpoints,
  SCHEDULE_BODY_MIN,
  scheduleEndpoints,
  type ScheduleAnswer,
} from '@atende/shared';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import type { Theme } from '@mui/material/styles';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useEffect, useMemo, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { api } from '../../api';
import { AttachmentField, useAdminFieldError, useAttachment, useChoices } from '../../kit';
import { useSession } from '../../session/store';
import { toast } from '../../ui/toast';
import { useErrorToast } from '../../ui/useErrorToast';
import {
  companyZone,
  defaultSendAt,
  formatWall,
  isTime,
  parseDay,
  wallParts,
  wallString,
} from './time';
import './i18n';

export type Schedule = ScheduleAnswer;
export interface ScheduleContact {
  id: number;
  name: string;
  number: string;
}

const INVALID_DATE = 'Data inválida';
/** Core §5: the dialog's rules, with the spec's messages. */
export const scheduleForm = z.object({
  contactId: z.number({ error: 'Obrigatório' }).int().positive('Obrigatório'),
  body: z.string().refine((v) => v.trim().length >= SCHEDULE_BODY_MIN, 'Mensagem muito curta'),
  date: z
    .string()
    .trim()
    .min(1, 'Obrigatório')
    .refine((v) => parseDay(v) !== null, INVALID_DATE),
  time: z.string().trim().min(1, 'Obrigatório').refine(isTime, INVALID_DATE),
  whatsappId: z.number().nullable(),
});
type FormValues = z.input<typeof scheduleForm>;

/** Core §4: 'Mensagem ' plus the status, or 'Erro de Envio' when it is ERRO. */
export function scheduleTitle(
  t: (key: string, options?: Record<string, unknown>) => string,
  status: Schedule['status'] | undefined,
): string {
  if (status === 'ERRO') return t('schedules.dialog.errorTitle');
  return t('schedules.dialog.title', { status: t(`schedules.status.${status ?? 'PENDENTE'}`) });
}

interface Props {
  open: boolean;
  /** The schedule to show or edit; null: a new one. */
  record: Schedule | null;
  /** The contact of a new schedule (from a ticket, or `?contactId=`). */
  contact?: ScheduleContact | null;
  /** The ticket it is scheduled from: its connection sends it. */
  ticketId?: number | null;
  onClose(): void;
  onSaved?(schedule: Schedule): void;
  onDeleted?(id: number): void;
}

/**
 * The schedule dialog (core §4, §5): contact, message (≥5), date DD/MM/YYYY and time (default one
 * hour ahead, the company's zone), connection, one png/jpg/jpeg image. Read-only once sent.
 */
export function ScheduleDialog({
  open,
  record,
  contact,
  ticketId,
  onClose,
  onSaved,
  onDeleted,
}: Props) {
  const { t } = useTranslation();
  const showError = useErrorToast();
  const fieldError = useAdminFieldError();
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const zone = companyZone(useSession((s) => s.user?.company?.settings));
  const connections = useChoices('/whatsapp', open);
  const [picked, setPicked] = useState<ScheduleContact | null>(null);
  const [input, setInput] = useState('');
  const [found, setFound] = useState<ScheduleContact[]>([]);
  const readOnly = record !== null && record.status !== 'PENDENTE';

  const media = useAttachment<Schedule>({
    open,
    record,
    upload: async (id, body) =>
      (await api.post<{ record: Schedule }>(`/schedules/${id}/media-upload`, body)).record,
    remove: async (id) =>
      (await api.call(scheduleEndpoints.removeScheduleMedia, { params: { id } })).record,
    onChanged: (row) => onSaved?.(row),
  });

  const values = useMemo<FormValues>(() => {
    const when = record ? wallParts(record.sendAt, zone) : defaultSendAt(Date.now(), zone);
    return {
      contactId: record?.contactId ?? contact?.id ?? 0,
      body: record?.body ?? '',
      date: when.date,
      time: when.time,
      whatsappId: record?.whatsappId ?? null,
    };
  }, [record, contact, zone]);
  const form = useForm<FormValues, unknown, z.output<typeof scheduleForm>>({
    resolver: zodResolver(scheduleForm),
    defaultValues: values,
  });
  const { reset, handleSubmit, register, control, formState, setValue } = form;

  useEffect(() => {
    if (!open) return;
    reset(values);
    setPicked(record?.contact ?? contact ?? null);
    setInput('');
  }, [open, values, reset, record, contact]);

  // Contacts by name or number, once 3 characters are typed.
  useEffect(() => {
    if (!open || input.trim().length < 3) return setFound([]);
    let live = true;
    const timer = setTimeout(() => {
      api
        .call(contactEndpoints.listContacts, { query: { searchParam: input, pageNumber: 1 } })
        .then((answer) => live && setFound(answer.contacts))
        .catch((error: unknown) => live && showError(error));
    }, 400);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [open, input, showError]);

  const message = (name: keyof FormValues) => {
    const text = formState.errors[name]?.message;
    return text === INVALID_DATE ? t('schedules.dialog.invalidDate') : fieldError(text);
  };

  const submit = handleSubmit(async (checked) => {
    const body = {
      body: checked.body.trim(),
      sendAt: wallString(checked.date, checked.time)!,
      contactId: checked.contactId,
      ticketId: record ? record.ticketId : (ticketId ?? null),
      whatsappId: checked.whatsappId,
    };
    try {
      const saved = media.current
        ? await api.call(scheduleEndpoints.updateSchedule, {
            params: { id: media.current.id },
            body,
          })
        : await api.call(scheduleEndpoints.createSchedule, { body });
      const row = await media.send(saved);
      toast.success(t('schedules.saved'));
      onSaved?.(row);
      onClose();
    } catch (error) {
      showError(error);
    }
  });

  const remove = async () => {
    if (!record) return;
    try {
      await api.call(scheduleEndpoints.deleteSchedule, { params: { id: record.id } });
      toast.success(t('schedules.deleted'));
      onDeleted?.(record.id);
      onClose();
    } catch (error) {
      showError(error);
    }
  };

  const status = media.current?.status ?? record?.status;
  return (
    <Dialog open={open} onClose={onClose} maxWidth="sm" fullWidth fullScreen={phone} scroll="paper">
      <DialogTitle data-testid="schedule-dialog-title">{scheduleTitle(t, status)}</DialogTitle>
      <form
        noValidate
        onSubmit={submit}
        style={{ display: 'flex', flexDirection: 'column', minHeight: 0, flex: 1 }}
      >
        <DialogContent dividers>
          <Stack spacing={2}>
            {record?.sentAt && (
              <Alert severity="success">
                {t('schedules.dialog.sentAt', { when: formatWall(record.sentAt, zone) })}
              </Alert>
            )}
            {record?.status === 'PERDIDA' && (
              <Alert severity="warning">{t('schedules.missedHint')}</Alert>
            )}
            <Autocomplete<ScheduleContact>
              options={found}
              value={picked}
              disabled={readOnly || Boolean(contact && !record)}
              filterOptions={(o) => o}
              getOptionLabel={(c) => `${c.name} - ${c.number}`}
              isOptionEqualToValue={(a, b) => a.id === b.id}
              onInputChange={(_e, value, reason) => reason === 'input' && setInput(value)}
              onChange={(_e, value) => {
                setPicked(value);
                setValue('contactId', value?.id ?? 0, { shouldValidate: formState.isSubmitted });
              }}
              renderInput={(params) => (
                <TextField
                  {...params}
                  label={t('schedules.dialog.contact')}
                  error={Boolean(message('contactId'))}
                  helperText={message('contactId')}
                  slotProps={{
                    ...params.slotProps,
                    htmlInput: { ...params.slotProps.htmlInput, 'data-testid': 'schedule-contact' },
                  }}
                />
              )}
            />
            <TextField
              {...register('body')}
              label={t('schedules.dialog.body')}
              multiline
              minRows={4}
              fullWidth
              autoFocus={!readOnly}
              disabled={readOnly}
              error={Boolean(message('body'))}
              helperText={message('body')}
              slotProps={{ htmlInput: { 'data-testid': 'schedule-body' } }}
            />
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <TextField
                {...register('date')}
                label={t('schedules.dialog.date')}
                placeholder="DD/MM/AAAA"
                fullWidth
                disabled={readOnly}
                error={Boolean(message('date'))}
                helperText={message('date')}
                slotProps={{ htmlInput: { inputMode: 'numeric', 'data-testid': 'schedule-date' } }}
              />
              <TextField
                {...register('time')}
                label={t('schedules.dialog.time')}
                placeholder="HH:mm"
                fullWidth
                disabled={readOnly}
                error={Boolean(message('time'))}
                helperText={message('time')}
                slotProps={{ htmlInput: { inputMode: 'numeric', 'data-testid': 'schedule-time' } }}
              />
            </Stack>
            <Controller
              control={control}
              name="whatsappId"
              render={({ field }) => (
                <TextField
                  select
                  fullWidth
                  disabled={readOnly}
                  label={t('schedules.dialog.connection')}
                  value={field.value == null ? '' : String(field.value)}
                  onChange={(e) => field.onChange(e.target.value ? Number(e.target.value) : null)}
                >
                  <MenuItem value="">{t('schedules.dialog.connectionDefault')}</MenuItem>
                  {connections.map((c) => (
                    <MenuItem key={String(c.value)} value={String(c.value)}>
                      {c.label}
                    </MenuItem>
                  ))}
                </TextField>
              )}
            />
            {readOnly ? (
              <Typography variant="body2">
                {t('schedules.dialog.attachment')}:{' '}
                {record?.mediaName ?? t('schedules.dialog.noMedia')}
              </Typography>
            ) : (
              <AttachmentField
                {...media.field}
                onPick={(file) => {
                  // Core §5: png, jpg or jpeg only.
                  if (file && !/\.(png|jpe?g)$/i.test(file.name)) {
                    toast.error(t('schedules.dialog.badImage'));
                    return;
                  }
                  media.field.onPick(file);
                }}
                label={t('schedules.dialog.attachment')}
                emptyText={t('schedules.dialog.noMedia')}
                accept=".png,.jpg,.jpeg,image/png,image/jpeg"
                testId="schedule-media"
              />
            )}
          </Stack>
        </DialogContent>
        <DialogActions>
          {record && (
            <Button color="error" onClick={() => void remove()} sx={{ mr: 'auto' }}>
              {t('schedules.dialog.delete')}
            </Button>
          )}
          <Button onClick={onClose}>{t('schedules.dialog.close')}</Button>
          {!readOnly && (
            <Button
              type="submit"
              variant="contained"
              disabled={formState.isSubmitting}
              data-testid="schedule-save"
            >
              {t('schedules.dialog.save')}
            </Button>
          )}
        </DialogActions>
      </form>
    </Dialog>
  );
}
