import { quickMessageInput } from '@atende/shared';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import {
  AttachmentField,
  FormDialog,
  SwitchInput,
  TextInput,
  useAttachment,
  type RecordDialogProps,
} from '../../kit';
import { useSession } from '../../session/store';
import { canSetGeneral, type QuickMessage } from './rules';
import './i18n';

const read = (id: number) => api.get<QuickMessage>(`/quick-messages/${id}`);

/** Add or edit a quick message: shortcode (required), reply, general flag, one attachment. */
export function QuickMessageDialog(props: RecordDialogProps<QuickMessage>) {
  const { open, record, onSaved } = props;
  const { t } = useTranslation();
  const profile = useSession((s) => s.user?.profile ?? 'user');
  const media = useAttachment({
    open,
    record,
    upload: async (id, body) => {
      await api.post(`/quick-messages/${id}/media-upload`, body);
      return read(id);
    },
    remove: async (id) => {
      await api.delete(`/quick-messages/${id}/media-upload`);
      return read(id);
    },
    onChanged: onSaved,
  });
  const { current } = media;
  const values = useMemo(
    () => ({
      shortcode: record?.shortcode ?? '',
      message: record?.message ?? '',
      geral: record?.geral ?? false,
    }),
    [record],
  );

  return (
    <FormDialog
      {...props}
      texts="quickMessages"
      editing={current !== null}
      schema={quickMessageInput}
      values={values}
      submit={async ({ geral, ...fields }) => {
        const body = { ...fields, ...(canSetGeneral(profile) && { geral }) };
        const saved = current
          ? await api.put<QuickMessage>(`/quick-messages/${current.id}`, body)
          : await api.post<QuickMessage>('/quick-messages', body);
        return media.send(saved);
      }}
    >
      <TextInput name="shortcode" label={t('quickMessages.dialog.shortcode')} autoFocus />
      <TextInput name="message" label={t('quickMessages.dialog.message')} multiline minRows={4} />
      {canSetGeneral(profile) && (
        <SwitchInput name="geral" label={t('quickMessages.dialog.geral')} />
      )}
      <AttachmentField
        {...media.field}
        emptyText={t('quickMessages.noMedia')}
        testId="quick-message-media"
      />
    </FormDialog>
  );
}
