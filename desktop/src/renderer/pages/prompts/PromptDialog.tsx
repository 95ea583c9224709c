import {
  PROMPT_FORM_DEFAULTS,
  PROMPT_VOICES,
  promptCreateFields,
  promptEndpoints,
  requireQueue,
  TEXT_VOICE,
  type PromptAnswer,
  type PromptVoice,
} from '@atende/shared';

type PromptVoiceChoice = PromptVoice | typeof TEXT_VOICE;
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import {
  FieldRow,
  FormDialog,
  SelectInput,
  TextInput,
  useChoices,
  type RecordDialogProps,
} from '../../kit';
import './i18n';

/** The prompt rules of the route (secondary §5): a missing queue reads 'Informe o setor'. */
export const promptForm = promptCreateFields.superRefine(requireQueue);

const valuesOf = (p: PromptAnswer | null) => ({
  name: p?.name ?? '',
  prompt: p?.prompt ?? '',
  // An edit shows the key masked (••••abcd); sent back as is, the server keeps the saved one.
  apiKey: p?.apiKey ?? '',
  queueId: p?.queueId ?? null,
  maxTokens: p?.maxTokens ?? PROMPT_FORM_DEFAULTS.maxTokens,
  temperature: p?.temperature ?? PROMPT_FORM_DEFAULTS.temperature,
  maxMessages: p?.maxMessages ?? PROMPT_FORM_DEFAULTS.maxMessages,
  voice: (p?.voice ?? PROMPT_FORM_DEFAULTS.voice) as PromptVoiceChoice,
  voiceKey: p?.voiceKey ?? '',
  voiceRegion: p?.voiceRegion ?? '',
  baseUrl: p?.baseUrl ?? PROMPT_FORM_DEFAULTS.baseUrl,
  model: p?.model ?? PROMPT_FORM_DEFAULTS.model,
});

export function PromptDialog(props: RecordDialogProps<PromptAnswer>) {
  const { open, record } = props;
  const { t } = useTranslation();
  const queues = useChoices('/queue', open);
  const values = useMemo(() => valuesOf(record), [record]);
  const label = (name: string) => t(`prompts.dialog.${name}`);
  const voices = [
    { value: TEXT_VOICE, label: label('texto') },
    ...PROMPT_VOICES.map((v) => ({ value: v, label: v.replace(/^pt-BR-|Neural$/g, '') })),
  ];
  const number = (name: string, step = 1) => (
    <TextInput name={name} label={label(name)} type="number" slotProps={{ htmlInput: { step } }} />
  );
  return (
    <FormDialog
      {...props}
      texts="prompts"
      maxWidth="md"
      schema={promptForm}
      values={values}
      submit={(body) =>
        record
          ? api.call(promptEndpoints.updatePrompt, { params: { id: record.id }, body })
          : api.call(promptEndpoints.createPrompt, { body })
      }
    >
      <TextInput name="name" label={label('name')} autoFocus />
      <TextInput
        name="apiKey"
        label={label('apiKey')}
        autoComplete="off"
        helperText={record ? label('keyKept') : undefined}
      />
      <TextInput name="prompt" label={label('prompt')} multiline minRows={6} />
      <SelectInput name="queueId" label={label('queue')} options={queues} />
      <FieldRow>
        {number('maxTokens')}
        {number('temperature', 0.1)}
        {number('maxMessages')}
      </FieldRow>
      <FieldRow>
        <TextInput name="baseUrl" label={label('baseUrl')} />
        <TextInput name="model" label={label('model')} />
      </FieldRow>
      <SelectInput name="voice" label={label('voice')} options={voices} />
      <FieldRow>
        <TextInput name="voiceKey" label={label('voiceKey')} autoComplete="off" />
        <TextInput name="voiceRegion" label={label('voiceRegion')} />
      </FieldRow>
    </FormDialog>
  );
}
