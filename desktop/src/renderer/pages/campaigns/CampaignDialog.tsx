import Alert from '@mui/material/Alert';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { campaignInput, type CampaignInput } from '@atende/shared';
import { useEffect, useMemo, useState } from 'react';
import { useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import {
  AttachmentField,
  FieldRow,
  FormDialog,
  SelectInput,
  TextInput,
  useAttachment,
  type Choice,
  type RecordDialogProps,
} from '../../kit';
import { editabilityOf, toLocalInput, type Campaign } from './rules';
import './i18n';

const read = (id: number) => api.get<Campaign>(`/campaigns/${id}`);
const VARIANTS = [1, 2, 3, 4, 5] as const;

/** Loads `{id, name}` choices; a route that is not there (yet) just gives none. */
function useLookup(
  path: string,
  open: boolean,
  pick: (data: unknown) => unknown[] = (d) => d as unknown[],
) {
  const [choices, setChoices] = useState<Choice[]>([]);
  useEffect(() => {
    if (!open) return;
    let live = true;
    api.get<unknown>(path).then(
      (data) => {
        const rows = (pick(data) ?? []) as { id: number; name: string }[];
        if (live) setChoices(rows.map((r) => ({ value: r.id, label: r.name })));
      },
      () => live && setChoices([]),
    );
    return () => {
      live = false;
    };
  }, [path, open]);
  return choices;
}

const asArray = (key: string) => (data: unknown) =>
  Array.isArray(data) ? data : ((data as Record<string, unknown[]> | null)?.[key] ?? []);

/** The variant tabs: message N and, with confirmation on, confirmation message N. */
function Variants() {
  const { t } = useTranslation();
  const [tab, setTab] = useState(0);
  const confirmation = useWatch({ name: 'confirmation' }) as unknown;
  const n = VARIANTS[tab]!;
  return (
    <>
      <Tabs
        value={tab}
        onChange={(_, v: number) => setTab(v)}
        variant="scrollable"
        scrollButtons="auto"
        aria-label={t('campaigns.dialog.message', { n: '' })}
      >
        {VARIANTS.map((v) => (
          <Tab
            key={v}
            label={t('campaigns.dialog.message', { n: v })}
            data-testid={`campaign-tab-${v}`}
          />
        ))}
      </Tabs>
      <TextInput
        key={`message${n}`}
        name={`message${n}`}
        label={t('campaigns.dialog.message', { n })}
        multiline
        minRows={4}
        helperText={t('campaigns.dialog.variables')}
      />
      {confirmation === true && (
        <TextInput
          key={`confirmationMessage${n}`}
          name={`confirmationMessage${n}`}
          label={t('campaigns.dialog.confirmationMessage', { n })}
          multiline
          minRows={3}
        />
      )}
    </>
  );
}

/** Add or edit a campaign (secondary §2, §3): audience, connection, file list, 5 variants. */
export function CampaignDialog(props: RecordDialogProps<Campaign>) {
  const { open, record, onSaved } = props;
  const { t } = useTranslation();
  const connections = useLookup('/whatsapp', open);
  const contactLists = useLookup('/contact-lists/list', open, asArray('records'));
  const tags = useLookup('/tags/list', open);
  const files = useLookup('/files', open, asArray('files'));
  const media = useAttachment({
    open,
    record,
    upload: async (id, body) => {
      await api.post(`/campaigns/${id}/media-upload`, body);
      return read(id);
    },
    remove: async (id) => {
      await api.delete(`/campaigns/${id}/media-upload`);
      return read(id);
    },
    onChanged: onSaved,
  });
  const { current } = media;
  const editable = current ? editabilityOf(current) : 'all';
  const values = useMemo(
    () =>
      ({
        name: record?.name ?? '',
        confirmation: record?.confirmation ?? false,
        whatsappId: record?.whatsappId ?? null,
        contactListId: record?.contactListId ?? null,
        tagListId: record?.tagListId ?? null,
        fileListId: record?.fileListId ?? null,
        scheduledAt: toLocalInput(record?.scheduledAt),
        message1: record?.message1 ?? '',
        message2: record?.message2 ?? '',
        message3: record?.message3 ?? '',
        message4: record?.message4 ?? '',
        message5: record?.message5 ?? '',
        confirmationMessage1: record?.confirmationMessage1 ?? '',
        confirmationMessage2: record?.confirmationMessage2 ?? '',
        confirmationMessage3: record?.confirmationMessage3 ?? '',
        confirmationMessage4: record?.confirmationMessage4 ?? '',
        confirmationMessage5: record?.confirmationMessage5 ?? '',
      }) as unknown as CampaignInput,
    [record],
  );
  const onOff: Choice[] = [
    { value: false, label: t('campaigns.dialog.disabled') },
    { value: true, label: t('campaigns.dialog.enabled') },
  ];

  return (
    <FormDialog
      {...props}
      texts="campaigns"
      editing={current !== null}
      schema={campaignInput}
      values={values}
      maxWidth="md"
      submit={async (checked) => {
        const body = { ...checked, scheduledAt: checked.scheduledAt ?? null };
        const saved = current
          ? await api.put<Campaign>(`/campaigns/${current.id}`, body)
          : await api.post<Campaign>('/campaigns', body);
        return media.send(saved);
      }}
    >
      {editable !== 'all' && <Alert severity="info">{t('campaigns.dialog.readOnly')}</Alert>}
      <FieldRow>
        <TextInput
          name="name"
          label={t('campaigns.dialog.name')}
          autoFocus
          disabled={editable !== 'all'}
        />
        <SelectInput
          name="confirmation"
          label={t('campaigns.dialog.confirmation')}
          options={onOff}
        />
      </FieldRow>
      {editable === 'all' ? (
        <>
          <FieldRow>
            <SelectInput
              name="contactListId"
              label={t('campaigns.dialog.contactList')}
              options={contactLists}
              none={t('campaigns.dialog.none')}
            />
            <SelectInput
              name="tagListId"
              label={t('campaigns.dialog.tagList')}
              options={tags}
              none={t('campaigns.dialog.none')}
            />
          </FieldRow>
          <FieldRow>
            <SelectInput
              name="whatsappId"
              label={t('campaigns.dialog.whatsapp')}
              options={connections}
              none={t('campaigns.dialog.none')}
            />
            <SelectInput
              name="fileListId"
              label={t('campaigns.dialog.fileList')}
              options={files}
              none={t('campaigns.dialog.none')}
            />
          </FieldRow>
          <TextInput
            name="scheduledAt"
            type="datetime-local"
            label={t('campaigns.dialog.scheduledAt')}
            slotProps={{ inputLabel: { shrink: true } }}
          />
        </>
      ) : (
        current && (
          <Typography variant="body2" color="text.secondary">
            {[current.contactList?.name, current.whatsapp?.name].filter(Boolean).join(' · ')}
          </Typography>
        )
      )}
      <Variants />
      <AttachmentField
        {...media.field}
        emptyText={t('campaigns.dialog.noMedia')}
        testId="campaign-media"
      />
    </FormDialog>
  );
}
