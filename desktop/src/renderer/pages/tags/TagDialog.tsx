import { zodResolver } from '@hookform/resolvers/zod';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { useEffect } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { api } from '../../api';
import { useSession } from '../../session/store';
import { toast } from '../../ui/toast';
import { useErrorToast } from '../../ui/useErrorToast';
import { ColorPicker } from '../../kit/ColorPicker';
import { useAdminFieldError } from '../../kit/validation';
import './i18n';

export interface Tag {
  id: number;
  name: string;
  color: string;
  kanban: number;
  ticketsCount?: number;
}

/** Tag form (admin §5): name required ('Obrigatório'), at least 3 ('Mensagem muito curta'). */
export const tagForm = z.object({
  name: z
    .string({ error: 'Obrigatório' })
    .trim()
    .min(1, 'Obrigatório')
    .pipe(z.string().min(3, 'Mensagem muito curta').max(100)),
  color: z.string().trim().max(9),
  kanban: z.boolean(),
});
type FormValues = z.infer<typeof tagForm>;

/** The kanban switch is for admin or supervisor only (admin §6). */
export const canSetKanban = (profile: string | undefined) =>
  profile === 'admin' || profile === 'supervisor';

interface Props {
  open: boolean;
  tag: Tag | null;
  onClose(): void;
  onSaved(tag: Tag): void;
}

export function TagDialog({ open, tag, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  const fieldError = useAdminFieldError();
  const showError = useErrorToast();
  const user = useSession((s) => s.user);
  const kanbanAllowed = canSetKanban(user?.profile);
  const { register, control, handleSubmit, reset, formState } = useForm<FormValues>({
    resolver: zodResolver(tagForm),
    defaultValues: { name: '', color: '#5C59A0', kanban: false },
  });
  const { errors, isSubmitting } = formState;

  useEffect(() => {
    if (open) {
      reset({ name: tag?.name ?? '', color: tag?.color ?? '#5C59A0', kanban: tag?.kanban === 1 });
    }
  }, [open, tag, reset]);

  const onSubmit = handleSubmit(async ({ kanban, ...values }) => {
    const body = { ...values, ...(kanbanAllowed && { kanban: kanban ? 1 : 0 }), userId: user?.id };
    try {
      const saved = tag
        ? await api.put<Tag>(`/tags/${tag.id}`, body)
        : await api.post<Tag>('/tags', body);
      toast.success(t('tags.saved'));
      onSaved(saved);
      onClose();
    } catch (error) {
      showError(error);
    }
  });

  return (
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth>
      <DialogTitle>{t(tag ? 'tags.dialog.editTitle' : 'tags.dialog.addTitle')}</DialogTitle>
      <form noValidate onSubmit={onSubmit}>
        <DialogContent dividers>
          <Stack spacing={2}>
            <TextField
              {...register('name')}
              label={t('tags.dialog.name')}
              fullWidth
              autoFocus
              error={Boolean(errors.name)}
              helperText={fieldError(errors.name?.message)}
            />
            <Controller
              control={control}
              name="color"
              render={({ field }) => (
                <ColorPicker
                  name="color"
                  label={t('tags.dialog.color')}
                  value={field.value}
                  onChange={field.onChange}
                  error={fieldError(errors.color?.message)}
                />
              )}
            />
            {kanbanAllowed && (
              <Controller
                control={control}
                name="kanban"
                render={({ field }) => (
                  <FormControlLabel
                    label={t('tags.dialog.kanban')}
                    control={
                      <Switch
                        checked={field.value}
                        onChange={(e) => field.onChange(e.target.checked)}
                      />
                    }
                  />
                )}
              />
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
