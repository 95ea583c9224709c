import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { userUpdate } from '@atende/shared';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { api } from '../api';
import type { User } from '../api/types';
import { PasswordField } from '../components/PasswordField';
import { useFieldError } from '../components/useFieldError';
import { useSession } from '../session/store';
import { toast } from '../ui/toast';
import { useErrorToast } from '../ui/useErrorToast';

const profileForm = userUpdate.pick({ name: true, password: true }).required({ name: true });

/**
 * 'Perfil' of the account menu: the signed-in user changes their own name and password
 * (PUT /users/{id}, which lets anyone change those of their own account). A new password ends
 * every session of the account on the server, this one included, so the user signs in again.
 */
export function ProfileDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const fieldError = useFieldError();
  const showError = useErrorToast();
  const navigate = useNavigate();
  const user = useSession((s) => s.user);
  const setUser = useSession((s) => s.setUser);
  const logout = useSession((s) => s.logout);
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ name?: string; password?: string }>({});
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!open) return;
    setName(user?.name ?? '');
    setPassword('');
    setErrors({});
  }, [open, user?.name]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!user) return;
    const parsed = profileForm.safeParse({ name, password });
    if (!parsed.success) {
      const next: typeof errors = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as 'name' | 'password';
        next[field] ??= fieldError(issue.message);
      }
      return setErrors(next);
    }
    setSaving(true);
    try {
      // An empty password field keeps the current password: nothing about it is sent.
      const { name: newName, password: newPassword } = parsed.data;
      const body = newPassword ? { name: newName, password: newPassword } : { name: newName };
      const saved = await api.put<Partial<User>>(`/users/${user.id}`, body);
      onClose();
      if (newPassword) {
        toast.success(t('profile.passwordChanged'));
        await logout();
        navigate('/login', { replace: true });
        return;
      }
      setUser({ ...user, name: saved.name ?? newName });
      toast.success(t('profile.saved'));
    } catch (error) {
      showError(error);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs">
      <form noValidate onSubmit={(e) => void submit(e)}>
        <DialogTitle>{t('profile.title')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextField
              label={t('profile.name')}
              value={name}
              onChange={(e) => setName(e.target.value)}
              error={Boolean(errors.name)}
              helperText={errors.name}
              autoFocus
              fullWidth
            />
            <TextField label={t('profile.email')} value={user?.email ?? ''} disabled fullWidth />
            <PasswordField
              toggleLabel={t('login.showPassword')}
              label={t('profile.password')}
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              error={Boolean(errors.password)}
              helperText={errors.password ?? t('profile.passwordHint')}
              autoComplete="new-password"
              fullWidth
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={saving}>
            {t('common.save')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
