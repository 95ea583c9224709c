import {
  DEFAULT_QUEUE_SCHEDULES,
  nameSchema,
  queueInput,
  type ScheduleEntry,
} from '@atende/shared';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import Stack from '@mui/material/Stack';
import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { api } from '../../api';
import {
  AttachmentField,
  ColorInput,
  ConfirmDialog,
  FieldRow,
  FormDialog,
  requiredText,
  SchedulesEditor,
  schedulesValid,
  SelectInput,
  TextInput,
  useAttachment,
  type RecordDialogProps,
} from '../../kit';
import { useIntegrationChoices } from '../queue-integration/useIntegrationChoices';
import { usePromptChoices } from '../prompts/usePromptChoices';
import { OptionTree, PendingOptions } from './OptionTree';
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

interface Props extends RecordDialogProps<Queue> {
  /** The schedule tab exists only when the company setting scheduleType is queue. */
  withSchedules: boolean;
}

/**
 * The queue dialog (admin §2): data tab with the attachment and the option tree, and the hours
 * tab when scheduleType is queue. A new queue stays open after its save so its options can be
 * written; options typed and not saved are saved with the queue, and closing over them asks.
 */
export function QueueDialog(props: Props) {
  const { open, record: queue, withSchedules, onClose, onSaved } = props;
  const { t } = useTranslation();
  const [tab, setTab] = useState(0);
  const integrationChoices = useIntegrationChoices(open);
  const prompts = usePromptChoices(open);
  const [schedules, setSchedules] = useState<ScheduleEntry[]>(copySchedules(null));
  const media = useAttachment({
    open,
    record: queue,
    upload: async (id, body) =>
      (await api.post<{ queue: Queue }>(`/queue/${id}/media-upload`, body)).queue,
    remove: async (id) => (await api.delete<{ queue: Queue }>(`/queue/${id}/media-upload`)).queue,
    onChanged: onSaved,
  });
  const { current } = media;
  const pending = useMemo(() => new PendingOptions(), []);
  const pendingCount = useSyncExternalStore(
    (listener) => pending.subscribe(listener),
    () => pending.count,
  );
  const [confirmDiscard, setConfirmDiscard] = useState(false);
  const values = useMemo(() => toForm(queue), [queue]);

  useEffect(() => {
    if (!open) return;
    setSchedules(copySchedules(queue));
    setTab(0);
  }, [open, queue]);

  return (
    <FormDialog
      {...props}
      texts="queues"
      editing={current !== null}
      maxWidth="md"
      schema={queueForm}
      values={values}
      cancelLabel={t('common.close')}
      // Closing over options typed but not saved asks first (issue 13).
      onCancel={() => (pending.count > 0 ? setConfirmDiscard(true) : onClose())}
      ready={() => {
        if (!withSchedules || schedulesValid(schedules)) return true;
        setTab(1);
        return false;
      }}
      submit={async (checked) => {
        const body = { ...checked, ...(withSchedules && { schedules }) };
        const saved = await media.send(
          current
            ? await api.put<Queue>(`/queue/${current.id}`, body)
            : await api.post<Queue>('/queue', body),
        );
        // Options typed in the tree are saved with the queue.
        await pending.saveAll();
        return saved;
      }}
      onSaved={(saved) => {
        onSaved(saved);
        media.setCurrent(saved);
      }}
      keepOpen={() => current === null}
      header={
        withSchedules && (
          <Tabs value={tab} onChange={(_, v: number) => setTab(v)} sx={{ px: 2 }}>
            <Tab label={t('queues.dialog.dataTab')} />
            <Tab label={t('queues.dialog.schedulesTab')} />
          </Tabs>
        )
      }
      footer={
        pendingCount > 0 && (
          <Typography variant="caption" color="warning.main" sx={{ mr: 'auto', pl: 1 }}>
            {t('queues.options.unsaved', { count: pendingCount })}
          </Typography>
        )
      }
      after={
        <ConfirmDialog
          open={confirmDiscard}
          title={t('queues.options.discardTitle')}
          message={t('queues.options.discardMessage', { count: pendingCount })}
          onClose={() => setConfirmDiscard(false)}
          onConfirm={onClose}
        />
      }
    >
      <Stack spacing={2} sx={{ display: tab === 0 ? 'flex' : 'none' }}>
        <FieldRow>
          <TextInput name="name" label={t('queues.dialog.name')} autoFocus />
          <ColorInput name="color" label={t('queues.dialog.color')} />
          <TextInput name="orderQueue" type="number" label={t('queues.dialog.orderQueue')} />
        </FieldRow>
        <TextInput
          name="greetingMessage"
          label={t('queues.dialog.greetingMessage')}
          multiline
          minRows={3}
        />
        <TextInput
          name="outOfHoursMessage"
          label={t('queues.dialog.outOfHoursMessage')}
          multiline
          minRows={2}
        />
        {/* Integrations come with their feature (/queueIntegration): until then only 'none'. */}
        <FieldRow>
          <SelectInput
            name="promptId"
            label={t('queues.dialog.prompt')}
            none={t('queues.dialog.none')}
            options={prompts}
          />
          <SelectInput
            name="integrationId"
            label={t('queues.dialog.integration')}
            none={t('queues.dialog.none')}
            options={integrationChoices}
          />
        </FieldRow>
        <AttachmentField
          label={t('queues.dialog.media')}
          {...media.field}
          emptyText={t('queues.dialog.noMedia')}
          testId="queue-media"
        />
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
    </FormDialog>
  );
}
