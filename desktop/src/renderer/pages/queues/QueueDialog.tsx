import {
  DEFAULT_QUEUE_SCHEDULES,
  nameSchema,
  queueInput,
  type ScheduleEntry,
} from '@atende/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import AttachFile from '@mui/icons-material/AttachFile';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { Theme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { api } from '../../api';
import { toast } from '../../ui/toast';
import { useErrorToast } from '../../ui/useErrorToast';
import { ColorPicker } from '../../kit/ColorPicker';
import { SchedulesEditor, schedulesValid } from '../../kit/SchedulesEditor';
import { requiredText, useAdminFieldError } from '../../kit/validation';
import { OptionTree, PendingOptions } from './OptionTree';
import { ConfirmDialog } from '../../kit/ConfirmDialog';
import type { Queue } from './types';
import './i18n';

/** The shared queue rules, with 'Required' for an empty name or colour. */
export const queueForm = queueInput.extend({
  name: requiredText(nameSchema),
  color: requiredText(queueInput.shape.color),
  // An empty order means "no order" (the queue goes last), not 0.
  orderQueue: z.preprocess(
    (v) => (v === '' || v === undefined ? null : v),
    z.coerce.number().int().min(0).max(100_000).nullable(),
  ),
});
type FormIn = z.input<typeof queueForm>;
type FormOut = z.output<typeof queueForm>;

interface Lookup {
  id: number;
  name: string;
}
const NO_LOOKUPS: Lookup[] = [];

const toForm = (q: Queue | null): FormIn => ({
  name: q?.name ?? '',
  color: q?.color ?? '',
  greetingMessage: q?.greetingMessage ?? '',
  outOfHoursMessage: q?.outOfHoursMessage ?? '',
  orderQueue: q?.orderQueue ?? '',
  promptId: q?.promptId ?? null,
  integrationId: q?.integrationId ?? null,
});

const copySchedules = (q: Queue | null): ScheduleEntry[] =>
  (q?.schedules?.length ? q.schedules : DEFAULT_QUEUE_SCHEDULES).map((s) => ({ ...s }));

interface Props {
  open: boolean;
  queue: Queue | null;
  /** The schedule tab exists only when the company setting scheduleType is queue. */
  withSchedules: boolean;
  onClose(): void;
  onSaved(queue: Queue): void;
}

export function QueueDialog({ open, queue, withSchedules, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  const fieldError = useAdminFieldError();
  const showError = useErrorToast();
  const [tab, setTab] = useState(0);
  const [schedules, setSchedules] = useState<ScheduleEntry[]>(copySchedules(null));
  const [file, setFile] = useState<File | null>(null);
  const [current, setCurrent] = useState<Queue | null>(queue);
  // Prompts and integrations come with their features (/prompt, /queueIntegration do not exist
  // yet): until then the selects offer only 'none' and the dialog calls no missing route.
  const prompts: Lookup[] = NO_LOOKUPS;
  const integrations: Lookup[] = NO_LOOKUPS;
  const fileInput = useRef<HTMLInputElement>(null);
  const pending = useMemo(() => new PendingOptions(), []);
  const pendingCount = useSyncExternalStore(
    (listener) => pending.subscribe(listener),
    () => pending.count,
  );
  const [confirmDiscard, setConfirmDiscard] = useState(false);
  const fullScreen = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  // Closing over options typed but not saved asks first (issue 13).
  const close = () => (pending.count > 0 ? setConfirmDiscard(true) : onClose());
  const { register, control, handleSubmit, reset, formState } = useForm<FormIn, unknown, FormOut>({
    resolver: zodResolver(queueForm),
    defaultValues: toForm(null),
  });
  const { errors, isSubmitting } = formState;

  useEffect(() => {
    if (!open) return;
    reset(toForm(queue));
    setCurrent(queue);
    setSchedules(copySchedules(queue));
    setFile(null);
    setTab(0);
  }, [open, queue, reset]);

  const onSubmit = handleSubmit(async (values) => {
    if (withSchedules && !schedulesValid(schedules)) return setTab(1);
    try {
      const body = { ...values, ...(withSchedules && { schedules }) };
      let saved = current
        ? await api.put<Queue>(`/queue/${current.id}`, body)
        : await api.post<Queue>('/queue', body);
      if (file) {
        const data = new FormData();
        data.append('file', file);
        saved = (await api.post<{ queue: Queue }>(`/queue/${saved.id}/media-upload`, data)).queue;
      }
      // Options typed in the tree are saved with the queue.
      await pending.saveAll();
      toast.success(t('queues.saved'));
      onSaved(saved);
      // A new queue stays open so its option tree can be written next.
      if (current) onClose();
      else setCurrent(saved);
      setFile(null);
    } catch (error) {
      showError(error);
    }
  });

  const removeMedia = async () => {
    if (file) return setFile(null);
    if (!current) return;
    try {
      const { queue: saved } = await api.delete<{ queue: Queue }>(
        `/queue/${current.id}/media-upload`,
      );
      setCurrent(saved);
      onSaved(saved);
    } catch (error) {
      showError(error);
    }
  };

  const mediaName = file?.name.replace(/\s/g, '_') ?? current?.mediaName;
  const lookup = (name: 'promptId' | 'integrationId', options: Lookup[]) => (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <TextField
          select
          fullWidth
          label={t(`queues.dialog.${name === 'promptId' ? 'prompt' : 'integration'}`)}
          value={field.value ?? ''}
          onChange={(e) => field.onChange(e.target.value === '' ? null : Number(e.target.value))}
        >
          <MenuItem value="">{t('queues.dialog.none')}</MenuItem>
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
    <Dialog
      open={open}
      onClose={close}
      maxWidth="md"
      fullWidth
      fullScreen={fullScreen}
      scroll="paper"
    >
      <DialogTitle>{t(current ? 'queues.dialog.editTitle' : 'queues.dialog.addTitle')}</DialogTitle>
      {withSchedules && (
        <Tabs value={tab} onChange={(_, v: number) => setTab(v)} sx={{ px: 2 }}>
          <Tab label={t('queues.dialog.dataTab')} />
          <Tab label={t('queues.dialog.schedulesTab')} />
        </Tabs>
      )}
      <form noValidate onSubmit={onSubmit}>
        <DialogContent dividers>
          <Stack spacing={2} sx={{ display: tab === 0 ? 'flex' : 'none' }}>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <TextField
                {...register('name')}
                label={t('queues.dialog.name')}
                fullWidth
                autoFocus
                error={Boolean(errors.name)}
                helperText={fieldError(errors.name?.message)}
              />
              <Controller
                control={control}
                name="color"
                render={({ field }) => (
                  <ColorPicker
                    name="color"
                    label={t('queues.dialog.color')}
                    value={field.value ?? ''}
                    onChange={field.onChange}
                    error={fieldError(errors.color?.message)}
                  />
                )}
              />
              <TextField
                {...register('orderQueue')}
                type="number"
                label={t('queues.dialog.orderQueue')}
                fullWidth
                error={Boolean(errors.orderQueue)}
                helperText={fieldError(errors.orderQueue?.message)}
              />
            </Stack>
            <TextField
              {...register('greetingMessage')}
              label={t('queues.dialog.greetingMessage')}
              multiline
              minRows={3}
              fullWidth
            />
            <TextField
              {...register('outOfHoursMessage')}
              label={t('queues.dialog.outOfHoursMessage')}
              multiline
              minRows={2}
              fullWidth
            />
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              {lookup('promptId', prompts)}
              {lookup('integrationId', integrations)}
            </Stack>
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
              <Typography variant="body2">{t('queues.dialog.media')}:</Typography>
              <Typography variant="body2" data-testid="queue-media-name">
                {mediaName ?? t('queues.dialog.noMedia')}
              </Typography>
              <IconButton aria-label={t('admin.attach')} onClick={() => fileInput.current?.click()}>
                <AttachFile />
              </IconButton>
              {mediaName && (
                <IconButton aria-label={t('admin.removeAttachment')} onClick={removeMedia}>
                  <DeleteOutlined />
                </IconButton>
              )}
              <input
                ref={fileInput}
                type="file"
                hidden
                data-testid="queue-media-input"
                onChange={(e) => setFile(e.target.files?.[0] ?? null)}
              />
            </Stack>
            {current ? (
              <OptionTree queueId={current.id} pending={pending} />
            ) : (
              <Typography variant="body2" color="text.secondary">
                {t('queues.options.hint')}
              </Typography>
            )}
          </Stack>
          {withSchedules && tab === 1 && (
            <Stack spacing={2}>
              <SchedulesEditor value={schedules} onChange={setSchedules} />
              <Typography variant="body2" color="text.secondary">
                {t('queues.dialog.schedulesNote')}
              </Typography>
            </Stack>
          )}
        </DialogContent>
        <DialogActions>
          {pendingCount > 0 && (
            <Typography variant="caption" color="warning.main" sx={{ mr: 'auto', pl: 1 }}>
              {t('queues.options.unsaved', { count: pendingCount })}
            </Typography>
          )}
          <Button onClick={close}>{t('common.close')}</Button>
          <Button type="submit" variant="contained" disabled={isSubmitting}>
            {t('common.save')}
          </Button>
        </DialogActions>
      </form>
      <ConfirmDialog
        open={confirmDiscard}
        title={t('queues.options.discardTitle')}
        message={t('queues.options.discardMessage', { count: pendingCount })}
        onClose={() => setConfirmDiscard(false)}
        onConfirm={onClose}
      />
    </Dialog>
  );
}
