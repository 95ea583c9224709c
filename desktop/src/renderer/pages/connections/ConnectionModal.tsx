import { nameSchema, WHATSAPP_DEFAULTS, whatsappFields } from '@atende/shared';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { api } from '../../api';
import {
  FieldRow,
  FormDialog,
  requiredText,
  SelectInput,
  SwitchInput,
  TextInput,
  useChoices,
  type RecordDialogProps,
} from '../../kit';
import { usePromptChoices } from '../prompts/usePromptChoices';
import type { Connection } from './types';
import './i18n';

/** The connection rules of admin §5; an empty name reads 'Required'. */
export const connectionForm = whatsappFields.extend({ name: requiredText(nameSchema) });
type FormIn = z.input<typeof connectionForm>;

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
  transferQueueId: null,
  timeToTransfer: 0,
  promptId: null,
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
  transferQueueId: c.transferQueueId,
  timeToTransfer: c.timeToTransfer ?? 0,
  promptId: c.promptId,
  expiresTicket: c.expiresTicket ?? 0,
  expiresInactiveMessage: c.expiresInactiveMessage ?? '',
  timeUseBotQueues: c.timeUseBotQueues ?? 0,
  maxUseBotQueues: c.maxUseBotQueues ?? 3,
});

interface Props extends RecordDialogProps<Connection> {
  /** Whether the server offers the simulator provider. */
  simulator: boolean;
}

/** Adds or edits a connection with every field of admin §2 and its defaults. */
export function ConnectionModal(props: Props) {
  const { open, record: connection, simulator } = props;
  const { t } = useTranslation();
  const queues = useChoices('/queue', open);
  const prompts = usePromptChoices(open);
  const values = useMemo(() => (connection ? fromConnection(connection) : empty()), [connection]);

  const label = (name: string) => t(`connections.dialog.${name}`);
  const text = (name: keyof FormIn) => (
    <TextInput name={name} label={label(name)} multiline minRows={2} />
  );
  const minutes = (name: keyof FormIn) => (
    <TextInput
      name={name}
      label={label(name)}
      type="number"
      slotProps={{ htmlInput: { min: 0 } }}
    />
  );

  return (
    <FormDialog
      {...props}
      texts="connections"
      maxWidth="md"
      schema={connectionForm}
      values={values}
      submit={(checked) =>
        connection
          ? api.put<Connection>(`/whatsapp/${connection.id}`, checked)
          : api.post<Connection>('/whatsapp', checked)
      }
    >
      <FieldRow center>
        <TextInput name="name" label={label('name')} />
        <SwitchInput name="isDefault" label={label('isDefault')} />
      </FieldRow>
      {text('greetingMessage')}
      {text('complationMessage')}
      {text('outOfHoursMessage')}
      {text('ratingMessage')}
      <TextInput name="token" label={label('token')} />
      <SelectInput
        name="provider"
        label={label('provider')}
        options={[
          { value: 'beta', label: label('providerBeta') },
          ...(simulator || connection?.provider === 'simulator'
            ? [{ value: 'simulator', label: label('providerSimulator') }]
            : []),
        ]}
      />
      <SelectInput multiple name="queueIds" label={label('queues')} options={queues} />
      <FieldRow>
        <SelectInput
          name="transferQueueId"
          label={label('transferQueue')}
          none={label('none')}
          options={queues}
        />
        {minutes('timeToTransfer')}
      </FieldRow>
      <SelectInput name="promptId" label={label('prompt')} none={label('none')} options={prompts} />
      <FieldRow>
        {minutes('expiresTicket')}
        {minutes('timeUseBotQueues')}
        {minutes('maxUseBotQueues')}
      </FieldRow>
      {text('expiresInactiveMessage')}
    </FormDialog>
  );
}
