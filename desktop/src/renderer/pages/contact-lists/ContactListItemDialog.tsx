import {
  contactListEndpoints,
  contactListItemInput,
  type ContactListItemAnswer,
} from '@atende/shared';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { api } from '../../api';
import { FormDialog, requiredText, TextInput, type RecordDialogProps } from '../../kit';
import './i18n';

export type ContactListItem = ContactListItemAnswer;

/** Item rules (secondary §5): name 2 to 50, number 8 to 50 characters, a valid e-mail or none. */
export const contactListItemForm = z.object({
  name: requiredText(contactListItemInput.shape.name),
  number: requiredText(contactListItemInput.shape.number),
  email: z.union([z.literal(''), z.string().trim().email('Invalid email')]),
});

export function ContactListItemDialog(
  props: RecordDialogProps<ContactListItem> & { contactListId: number },
) {
  const { record, contactListId } = props;
  const { t } = useTranslation();
  const values = useMemo(
    () => ({ name: record?.name ?? '', number: record?.number ?? '', email: record?.email ?? '' }),
    [record],
  );
  return (
    <FormDialog
      {...props}
      texts="contactListItems"
      maxWidth="xs"
      schema={contactListItemForm}
      values={values}
      submit={(body) =>
        record
          ? api.call(contactListEndpoints.updateContactListItem, {
              params: { id: record.id },
              body,
            })
          : api.call(contactListEndpoints.createContactListItem, {
              body: { ...body, contactListId },
            })
      }
    >
      <TextInput name="name" label={t('contactListItems.dialog.name')} autoFocus />
      <TextInput
        name="number"
        label={t('contactListItems.dialog.number')}
        helperText={t('contactListItems.dialog.numberHelp')}
        inputMode="tel"
      />
      <TextInput name="email" label={t('contactListItems.dialog.email')} type="email" />
    </FormDialog>
  );
}
