import { quickMessageInput } from '@atende/shared';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import {
  AttachmentField,
  attachmentForm,
  FormDialog,
  SwitchInput,
  TextInput,
  type RecordDialogProps,
} from '../../kit';
import { useSession } from '../../session/store';
import { useErrorToast } from '../../ui/useErrorToast';
import { canSetGeneral, type QuickMessage } from './rules';
import './i18n';

/** Add or edit a quick message: shortcode (required), reply, general flag, one attachment. */
export function QuickMessageDialog({
  open,
  record,
  onClose,
  onSaved,
}: RecordDialogProps<QuickMessage>) {
  const { t } = useTranslation();
  const showError = useErrorToast();
  const profile = useSession((s) => s.user?.profile ?? 'user');
  const [file, setFile] = useState<File | null>(null);
  const [current, setCurrent] = useState<QuickMessage | null>(record);
  const values = useMemo(
    () => ({
      shortcode: record?.shortcode ?? '',
      message: record?.message ?? '',
      geral: record?.geral ?? false,
    }),
    [record],
  );

  useEffect(() => {
    if (!open) return;
    setCurrent(record);
    setFile(null);
  }, [open, record]);

  const removeStored = async () => {
    if (!current) return;
    try {
      await api.delete(`/quick-messages/${current.id}/media-upload`);
      const saved = await api.get<QuickMessage>(`/quick-messages/${current.id}`);
      setCurrent(saved);
      onSaved(saved);
    } catch (error) {
      showError(error);
    }
  };

  return (
    <FormDialog
      open={open}
      title={t(current ? 'quickMessages.dialog.editTitle' : 'quickMessages.dialog.addTitle')}
      schema={quickMessageInput}
      values={values}
      savedText={t('quickMessages.saved')}
      onClose={onClose}
      onSaved={onSaved}
      submit={async ({ geral, ...fields }) => {
        const body = { ...fields, ...(canSetGeneral(profile) && { geral }) };
        const saved = current
          ? await api.put<QuickMessage>(`/quick-messages/${current.id}`, body)
          : await api.post<QuickMessage>('/quick-messages', body);
        if (!file) return saved;
        await api.post(`/quick-messages/${saved.id}/media-upload`, attachmentForm(file));
        return api.get<QuickMessage>(`/quick-messages/${saved.id}`);
      }}
    >
      <TextInput name="shortcode" label={t('quickMessages.dialog.shortcode')} autoFocus />
      <TextInput name="message" label={t('quickMessages.dialog.message')} multiline minRows={4} />
      {canSetGeneral(profile) && (
        <SwitchInput name="geral" label={t('quickMessages.dialog.geral')} />
      )}
      <AttachmentField
        file={file}
        onPick={setFile}
        stored={current?.mediaName}
        onRemoveStored={() => void removeStored()}
        emptyText={t('quickMessages.noMedia')}
        testId="quick-message-media"
      />
    </FormDialog>
  );
}
