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
import { zodResolver } from '@hookform/resolvers/zod';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useEffect, useState } from 'react';
import { Controller, useForm, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { api } from '../../api';
import type { User } from '../../api/types';
import { PasswordField } from '../../components/PasswordField';
import { useSession } from '../../session/store';
import { toast } from '../../ui/toast';
import { useErrorToast } from '../../ui/useErrorToast';
import { requiredText, useAdminFieldError } from '../../kit/validation';
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
type FormOut = z.output<typeof editUserForm>;

interface Option {
  id: number;
  name: string;
}

const toForm = (u: User | null): FormIn => ({
  name: u?.name ?? '',
  email: u?.email ?? '',
  password: '',
  profile: u?.profile ?? 'user',
  allTicket: u?.allTicket ?? 'desabled',
  whatsappId: u?.whatsappId ?? null,
  queueIds: u?.queues.map((q) => q.id) ?? [],
});

interface Props {
  open: boolean;
  user: User | null;
  onClose(): void;
  onSaved(user: User): void;
}

/** The user modal: name, e-mail, password, profile, queues, default connection, allTicket. */
export function UserModal({ open, user, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  const fieldError = useAdminFieldError();
  const showError = useErrorToast();
  const me = useSession((s) => s.user);
  const myProfile: Profile = me?.profile ?? 'user';
  const editProfile = can(myProfile, 'user-modal:editProfile');
  const editQueues = can(myProfile, 'user-modal:editQueues');
  const [queues, setQueues] = useState<Option[]>([]);
  const [connections, setConnections] = useState<Option[]>([]);
  const { register, control, handleSubmit, reset, formState } = useForm<FormIn, unknown, FormOut>({
    resolver: (user ? zodResolver(editUserForm) : zodResolver(newUserForm)) as Resolver<
      FormIn,
      unknown,
      FormOut
    >,
    defaultValues: toForm(null),
  });
  const { errors, isSubmitting } = formState;

  useEffect(() => {
    if (!open) return;
    reset(toForm(user));
    if (editQueues) api.get<Option[]>('/queue').then(setQueues).catch(showError);
    if (editProfile) api.get<Option[]>('/whatsapp').then(setConnections).catch(showError);
  }, [open, user, reset, editQueues, editProfile, showError]);

  const onSubmit = handleSubmit(async (values) => {
    // Fields the signed-in user may not change are not sent (core §6).
    const { profile, allTicket, whatsappId, queueIds, ...rest } = values;
    const body = {
      ...rest,
      ...(editProfile && { profile, allTicket, whatsappId: whatsappId ?? null }),
      ...(editQueues && { queueIds }),
    };
    try {
      const saved = user
        ? await api.put<User>(`/users/${user.id}`, body)
        : await api.post<User>('/users', body);
      toast.success(t('users.saved'));
      onSaved(saved);
      onClose();
    } catch (error) {
      showError(error);
    }
  });

  const select = (
    name: 'profile' | 'allTicket' | 'whatsappId',
    label: string,
    options: { value: string | number; label: string }[],
  ) => (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <TextField
          select
          fullWidth
          label={label}
          value={field.value ?? ''}
          onChange={(e) =>
            field.onChange(
              name === 'whatsappId'
                ? e.target.value === ''
                  ? null
                  : Number(e.target.value)
                : e.target.value,
            )
          }
        >
          {options.map((o) => (
            <MenuItem key={o.value} value={o.value}>
              {o.label}
            </MenuItem>
          ))}
        </TextField>
      )}
    />
  );

  return (
    <Dialog open={open} onClose={onClose} maxWidth="sm" fullWidth>
      <DialogTitle>{t(user ? 'users.modal.editTitle' : 'users.modal.addTitle')}</DialogTitle>
      <form noValidate onSubmit={onSubmit}>
        <DialogContent dividers>
          <Stack spacing={2}>
            <Stack direction="row" spacing={2}>
              <TextField
                {...register('name')}
                label={t('users.modal.name')}
                fullWidth
                autoFocus
                error={Boolean(errors.name)}
                helperText={fieldError(errors.name?.message)}
              />
              <PasswordField
                {...register('password')}
                label={t('users.modal.password')}
                toggleLabel={t('login.showPassword')}
                fullWidth
                autoComplete="new-password"
                error={Boolean(errors.password)}
                helperText={
                  fieldError(errors.password?.message) ??
                  (user ? t('users.modal.passwordHint') : undefined)
                }
              />
            </Stack>
            <Stack direction="row" spacing={2}>
              <TextField
                {...register('email')}
                label={t('users.modal.email')}
                type="email"
                fullWidth
                error={Boolean(errors.email)}
                helperText={fieldError(errors.email?.message)}
              />
              {editProfile &&
                select(
                  'profile',
                  t('users.modal.profile'),
                  PROFILES.map((p) => ({ value: p, label: t(`users.profiles.${p}`) })),
                )}
            </Stack>
            {editQueues && (
              <Controller
                control={control}
                name="queueIds"
                render={({ field }) => (
                  <TextField
                    select
                    fullWidth
                    label={t('users.modal.queues')}
                    value={(field.value as number[] | undefined) ?? []}
                    onChange={(e) => field.onChange(e.target.value as unknown as number[])}
                    slotProps={{ select: { multiple: true } }}
                  >
                    {queues.map((q) => (
                      <MenuItem key={q.id} value={q.id}>
                        {q.name}
                      </MenuItem>
                    ))}
                  </TextField>
                )}
              />
            )}
            {editProfile && (
              <Stack direction="row" spacing={2}>
                {select('whatsappId', t('users.modal.whatsapp'), [
                  { value: '', label: t('users.modal.none') },
                  ...connections.map((c) => ({ value: c.id, label: c.name })),
                ])}
                {select('allTicket', t('users.modal.allTicket'), [
                  { value: 'enabled', label: t('users.modal.enabled') },
                  { value: 'desabled', label: t('users.modal.disabled') },
                ])}
              </Stack>
            )}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={isSubmitting}>
            {t('common.save')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
