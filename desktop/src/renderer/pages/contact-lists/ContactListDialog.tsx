import { contactListEndpoints, contactListInput, type ContactListAnswer } from '@atende/shared';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { api } from '../../api';
import { FormDialog, requiredText, TextInput, type RecordDialogProps } from '../../kit';
import './i18n';

export type ContactList = ContactListAnswer;

/** Contact list name (secondary §5): required, 2 to 50 ('Required', 'Too Short!', 'Too Long!'). */
export const contactListForm = z.object({ name: requiredText(contactListInput.shape.name) });

export function ContactListDialog(props: RecordDialogProps<ContactList>) {
  const { record } = props;
  const { t } = useTranslation();
  const values = useMemo(() => ({ name: record?.name ?? '' }), [record]);
  return (
    <FormDialog
      {...props}
      texts="contactLists"
      maxWidth="xs"
      schema={contactListForm}
      values={values}
      submit={(body) =>
        record
          ? api.call(contactListEndpoints.updateContactList, { params: { id: record.id }, body })
          : api.call(contactListEndpoints.createContactList, { body })
      }
    >
      <TextInput name="name" label={t('contactLists.dialog.name')} autoFocus />
    </FormDialog>
  );
}
