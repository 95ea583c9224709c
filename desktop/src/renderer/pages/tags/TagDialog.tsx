import { tagEndpoints, tagInput, type TagAnswer } from '@atende/shared';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { api } from '../../api';
import { useSession } from '../../session/store';
import {
  ColorInput,
  FormDialog,
  requiredText,
  SwitchInput,
  TextInput,
  type RecordDialogProps,
} from '../../kit';
import './i18n';

/** A tag as `/tags` answers it; the list's page adds how many tickets carry it. */
export type Tag = TagAnswer & { ticketsCount?: number };

/**
 * The tag rules of `@atende/shared` (admin §5): an empty name reads 'Obrigatório', a short one
 * 'Mensagem muito curta'; the form holds the kanban flag as a switch.
 */
export const tagForm = z.object({
  name: requiredText(tagInput.shape.name, 'Obrigatório'),
  color: z.string().trim().max(9),
  kanban: z.boolean(),
});

/** The kanban switch is for admin or supervisor only (admin §6). */
export const canSetKanban = (profile: string | undefined) =>
  profile === 'admin' || profile === 'supervisor';

const DEFAULT_COLOR = '#5C59A0';

export function TagDialog(props: RecordDialogProps<Tag>) {
  const { record } = props;
  const { t } = useTranslation();
  const user = useSession((s) => s.user);
  const kanbanAllowed = canSetKanban(user?.profile);
  const values = useMemo(
    () => ({
      name: record?.name ?? '',
      color: record?.color ?? DEFAULT_COLOR,
      kanban: record?.kanban === 1,
    }),
    [record],
  );
  return (
    <FormDialog
      {...props}
      texts="tags"
      maxWidth="xs"
      schema={tagForm}
      values={values}
      submit={({ kanban, ...fields }) => {
        const body = {
          ...fields,
          ...(kanbanAllowed && { kanban: kanban ? (1 as const) : (0 as const) }),
          userId: user?.id,
        };
        return record
          ? api.call(tagEndpoints.updateTag, { params: { id: record.id }, body })
          : api.call(tagEndpoints.createTag, { body });
      }}
    >
      <TextInput name="name" label={t('tags.dialog.name')} autoFocus />
      <ColorInput name="color" label={t('tags.dialog.color')} />
      {kanbanAllowed && <SwitchInput name="kanban" label={t('tags.dialog.kanban')} />}
    </FormDialog>
  );
}
