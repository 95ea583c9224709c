import { announcementInput, type AnnouncementAnswer } from '@atende/shared';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import {
  AttachmentField,
  FormDialog,
  SelectInput,
  SwitchInput,
  TextInput,
  useAttachment,
  type RecordDialogProps,
} from '../../kit';
import './i18n';

const read = (id: number) => api.get<AnnouncementAnswer>(`/announcements/${id}`);

/** Secondary §5: the image attachment is limited to png, jpg, jpeg. */
export const ANNOUNCEMENT_ACCEPT = '.png,.jpg,.jpeg,image/png,image/jpeg';

/** Add or edit an announcement: title and text required, priority (default 3), active, image. */
export function AnnouncementDialog(props: RecordDialogProps<AnnouncementAnswer>) {
  const { open, record, onSaved } = props;
  const { t } = useTranslation();
  const media = useAttachment({
    open,
    record,
    upload: async (id, body) => {
      await api.post(`/announcements/${id}/media-upload`, body);
      return read(id);
    },
    remove: async (id) => {
      await api.delete(`/announcements/${id}/media-upload`);
      return read(id);
    },
    onChanged: onSaved,
  });
  const { current } = media;
  const values = useMemo(
    () => ({
      title: record?.title ?? '',
      text: record?.text ?? '',
      priority: (record?.priority ?? 3) as 1 | 2 | 3,
      status: record?.status ?? true,
    }),
    [record],
  );
  const priorities = [1, 2, 3].map((value) => ({
    value,
    label: t(`announcements.priorities.${value}`),
  }));

  return (
    <FormDialog
      {...props}
      texts="announcements"
      editing={current !== null}
      schema={announcementInput}
      values={values}
      submit={async (body) => {
        const saved = current
          ? await api.put<AnnouncementAnswer>(`/announcements/${current.id}`, body)
          : await api.post<AnnouncementAnswer>('/announcements', body);
        return media.send(saved);
      }}
    >
      <TextInput name="title" label={t('announcements.dialog.title')} autoFocus />
      <TextInput name="text" label={t('announcements.dialog.text')} multiline minRows={4} />
      <SelectInput
        name="priority"
        label={t('announcements.dialog.priority')}
        options={priorities}
      />
      <SwitchInput name="status" label={t('announcements.dialog.status')} />
      <AttachmentField
        {...media.field}
        accept={ANNOUNCEMENT_ACCEPT}
        emptyText={t('announcements.noMedia')}
        testId="announcement-media"
      />
    </FormDialog>
  );
}
