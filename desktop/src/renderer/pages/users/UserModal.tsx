import {
  can,
  emailSchema,
  nameSchema,
  PROFILES,
  userInput,
  userPassword,
  userUpdate,
  type Profile,
} from '@atende/shared';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { api } from '../../api';
import type { UserRow as User } from '../../api/types';
import {
  FieldRow,
  FormDialog,
  PasswordInput,
  requiredText,
  SelectInput,
  TextInput,
  useChoices,
  type RecordDialogProps,
} from '../../kit';
import { useSession } from '../../session/store';
import './i18n';

/** Admin §5 user rules; an empty name or e-mail reads 'Required'. */
export const newUserForm = userInput.extend({
  name: requiredText(nameSchema),
  email: requiredText(emailSchema),
  password: requiredText(userPassword),
});
/** Editing keeps the password when the field is left empty. */
export const editUserForm = userUpdate.extend({
  name: requiredText(nameSchema),
  email: requiredText(emailSchema),
});
type FormIn = z.input<typeof newUserForm>;

const toForm = (u: User | null): FormIn => ({
  name: u?.name ?? '',
  email: u?.email ?? '',
  password: '',
  profile: u?.profile ?? 'user',
  allTicket: u?.allTicket ?? 'desabled',
  whatsappId: u?.whatsappId ?? null,
  queueIds: u?.queues.map((q) => q.id) ?? [],
});

/** The user modal: name, e-mail, password, profile, queues, default connection, allTicket. */
export function UserModal(props: RecordDialogProps<User>) {
  const { record: user } = props;
  const { t } = useTranslation();
  const me = useSession((s) => s.user);
  const myProfile: Profile = me?.profile ?? 'user';
  const editProfile = can(myProfile, 'user-modal:editProfile');
  const editQueues = can(myProfile, 'user-modal:editQueues');
  const queues = useChoices('/queue', props.open && editQueues);
  const connections = useChoices('/whatsapp', props.open && editProfile);
  const values = useMemo(() => toForm(user), [user]);

  return (
    <FormDialog
      {...props}
      texts="users"
      schema={(user ? editUserForm : newUserForm) as typeof editUserForm}
      values={values}
      submit={(checked) => {
        // Fields the signed-in user may not change are not sent (core §6).
        const { profile, allTicket, whatsappId, queueIds, ...rest } = checked;
        const body = {
          ...rest,
          ...(editProfile && { profile, allTicket, whatsappId: whatsappId ?? null }),
          ...(editQueues && { queueIds }),
        };
        return user ? api.put<User>(`/users/${user.id}`, body) : api.post<User>('/users', body);
      }}
    >
      <FieldRow>
        <TextInput name="name" label={t('users.dialog.name')} autoFocus />
        <PasswordInput
          name="password"
          label={t('users.dialog.password')}
          hint={user ? t('users.dialog.passwordHint') : undefined}
        />
      </FieldRow>
      <FieldRow>
        <TextInput name="email" label={t('users.dialog.email')} type="email" />
        {editProfile && (
          <SelectInput
            name="profile"
            label={t('users.dialog.profile')}
            options={PROFILES.map((p) => ({ value: p, label: t(`users.profiles.${p}`) }))}
          />
        )}
      </FieldRow>
      {editQueues && (
        <SelectInput multiple name="queueIds" label={t('users.dialog.queues')} options={queues} />
      )}
      {editProfile && (
        <FieldRow>
          <SelectInput
            name="whatsappId"
            label={t('users.dialog.whatsapp')}
            none={t('users.dialog.none')}
            options={connections}
          />
          <SelectInput
            name="allTicket"
            label={t('users.dialog.allTicket')}
            options={[
              { value: 'enabled', label: t('users.dialog.enabled') },
              { value: 'desabled', label: t('users.dialog.disabled') },
            ]}
          />
        </FieldRow>
      )}
    </FormDialog>
  );
}
