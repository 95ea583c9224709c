import {
  DIALOGFLOW_LANGUAGES,
  INTEGRATION_TYPES,
  nameSchema,
  queueIntegrationEndpoints as endpoints,
  queueIntegrationInput,
  type QueueIntegrationAnswer,
} from '@atende/shared';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { useMemo, useState } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import {
  FieldRow,
  FormDialog,
  requiredText,
  SelectInput,
  TextInput,
  type RecordDialogProps,
} from '../../kit';
import { toast } from '../../ui/toast';
import { useErrorToast } from '../../ui/useErrorToast';
import './i18n';

/** An integration as the page holds it; a create of n8n/webhook also brings its secret once. */
export type QueueIntegration = QueueIntegrationAnswer & { webhookSecret?: string };

/** The route's own rules (secondary §5: name 2 to 50), with 'Required' for an empty name. */
export const integrationForm = queueIntegrationInput.extend({
  name: requiredText(nameSchema),
});

const toForm = (r: QueueIntegration | null) => ({
  type: r?.type ?? 'typebot',
  name: r?.name ?? '',
  projectName: r?.projectName ?? '',
  jsonContent: '',
  language: r?.language ?? 'pt-BR',
  urlN8N: r?.urlN8N ?? '',
  typebotSlug: r?.typebotSlug ?? '',
  typebotExpires: String(r?.typebotExpires ?? 1),
  typebotDelayMessage: String(r?.typebotDelayMessage ?? 1000),
  typebotKeywordFinish: r?.typebotKeywordFinish ?? '',
  typebotKeywordRestart: r?.typebotKeywordRestart ?? '',
  typebotUnknownMessage: r?.typebotUnknownMessage ?? '',
  typebotRestartMessage: r?.typebotRestartMessage ?? '',
});

/** Dialogflow's "test bot": a token and one detectIntent with what the form holds. */
function TestButton({ id }: { id?: number }) {
  const { t } = useTranslation();
  const showError = useErrorToast();
  const { getValues } = useFormContext();
  const [busy, setBusy] = useState(false);
  return (
    <Button
      variant="outlined"
      disabled={busy}
      onClick={async () => {
        setBusy(true);
        try {
          await api.call(endpoints.testSession, {
            body: {
              projectName: getValues('projectName'),
              jsonContent: getValues('jsonContent'),
              language: getValues('language'),
              ...(id ? { id } : {}),
            },
          });
          toast.success(t('queueIntegration.dialog.testOk'));
        } catch (error) {
          showError(error);
        } finally {
          setBusy(false);
        }
      }}
    >
      {t('queueIntegration.dialog.test')}
    </Button>
  );
}

/** The fields of the chosen type (secondary §3). */
function TypeFields({ record }: { record: QueueIntegration | null }) {
  const { t } = useTranslation();
  const type = useWatch({ name: 'type' }) as QueueIntegration['type'];
  const d = (key: string) => t(`queueIntegration.dialog.${key}`);
  if (type === 'dialogflow') {
    return (
      <>
        <FieldRow>
          <TextInput name="projectName" label={d('projectName')} />
          <SelectInput
            name="language"
            label={d('language')}
            options={DIALOGFLOW_LANGUAGES.map((l) => ({
              value: l,
              label: t(`queueIntegration.dialog.languages.${l}`),
            }))}
          />
        </FieldRow>
        {record?.credential.set && (
          <Alert severity="info">
            {t('queueIntegration.dialog.jsonKept', {
              masked: record.credential.masked,
              project: record.projectId ?? '',
            })}
          </Alert>
        )}
        <TextInput name="jsonContent" label={d('jsonContent')} multiline minRows={4} maxRows={8} />
        <div>
          <TestButton id={record?.id} />
        </div>
      </>
    );
  }
  if (type === 'typebot') {
    return (
      <>
        <TextInput
          name="urlN8N"
          label={d('urlTypebot')}
          placeholder="https://typebot.exemplo.com"
        />
        <FieldRow>
          <TextInput name="typebotSlug" label={d('typebotSlug')} />
          <TextInput name="typebotExpires" label={d('typebotExpires')} type="number" />
        </FieldRow>
        <FieldRow>
          <TextInput name="typebotKeywordFinish" label={d('typebotKeywordFinish')} />
          <TextInput name="typebotKeywordRestart" label={d('typebotKeywordRestart')} />
        </FieldRow>
        <TextInput name="typebotDelayMessage" label={d('typebotDelayMessage')} type="number" />
        <TextInput name="typebotUnknownMessage" label={d('typebotUnknownMessage')} multiline />
        <TextInput name="typebotRestartMessage" label={d('typebotRestartMessage')} multiline />
      </>
    );
  }
  return (
    <>
      <TextInput name="urlN8N" label={d('urlN8N')} placeholder="https://" />
      {record?.signingSecret.set && (
        <Alert severity="info">
          {t('queueIntegration.dialog.secretSet', { masked: record.signingSecret.masked })}
        </Alert>
      )}
    </>
  );
}

/** Add or edit an integration (secondary §2, §3): the fields of its type, checked on save. */
export function QueueIntegrationDialog(props: RecordDialogProps<QueueIntegration>) {
  const { record } = props;
  const { t } = useTranslation();
  const values = useMemo(() => toForm(record), [record]);
  return (
    <FormDialog
      {...props}
      texts="queueIntegration"
      maxWidth="md"
      schema={integrationForm}
      values={values}
      submit={(body) =>
        record
          ? api.call(endpoints.updateQueueIntegration, { params: { id: record.id }, body })
          : api.call(endpoints.createQueueIntegration, { body })
      }
    >
      <FieldRow>
        <SelectInput
          name="type"
          label={t('queueIntegration.dialog.type')}
          options={INTEGRATION_TYPES.map((type) => ({
            value: type,
            label: t(`queueIntegration.types.${type}`),
          }))}
        />
        <TextInput name="name" label={t('queueIntegration.dialog.name')} autoFocus />
      </FieldRow>
      <TypeFields record={record} />
    </FormDialog>
  );
}
