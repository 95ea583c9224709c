import { quickMessageInput } from '@atende/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import AttachFile from '@mui/icons-material/AttachFile';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { api } from '../../api';
import { useSession } from '../../session/store';
import { toast } from '../../ui/toast';
import { useErrorToast } from '../../ui/useErrorToast';
import { useAdminFieldError } from '../../kit/validation';
import { attachmentName, canSetGeneral, type QuickMessage } from './rules';
import './i18n';

type FormIn = z.input<typeof quickMessageInput>;
type FormOut = z.output<typeof quickMessageInput>;

interface Props {
  open: boolean;
  record: QuickMessage | null;
  onClose(): void;
  onSaved(record: QuickMessage): void;
}

/** Add or edit a quick message: shortcode (required), reply, general flag, one attachment. */
export function QuickMessageDialog({ open, record, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  const fieldError = useAdminFieldError();
  const showError = useErrorToast();
  const profile = useSession((s) => s.user?.profile ?? 'user');
  const [file, setFile] = useState<File | null>(null);
  const [current, setCurrent] = useState<QuickMessage | null>(record);
  const fileInput = useRef<HTMLInputElement>(null);
  const { register, control, handleSubmit, reset, formState } = useForm<FormIn, unknown, FormOut>({
    resolver: zodResolver(quickMessageInput),
    defaultValues: { shortcode: '', message: '' },
  });
  const { errors, isSubmitting } = formState;

  useEffect(() => {
    if (!open) return;
    reset({
      shortcode: record?.shortcode ?? '',
      message: record?.message ?? '',
      geral: record?.geral ?? false,
    });
    setCurrent(record);
    setFile(null);
  }, [open, record, reset]);

  const onSubmit = handleSubmit(async ({ geral, ...values }) => {
    const body = { ...values, ...(canSetGeneral(profile) && { geral }) };
    try {
      let saved = current
        ? await api.put<QuickMessage>(`/quick-messages/${current.id}`, body)
        : await api.post<QuickMessage>('/quick-messages', body);
      if (file) {
        const data = new FormData();
        data.append('file', file, attachmentName(file.name));
        await api.post(`/quick-messages/${saved.id}/media-upload`, data);
        saved = await api.get<QuickMessage>(`/quick-messages/${saved.id}`);
      }
      toast.success(t('quickMessages.saved'));
      onSaved(saved);
      onClose();
    } catch (error) {
      showError(error);
    }
  });

  const removeMedia = async () => {
    if (file) return setFile(null);
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

  const mediaName = file ? attachmentName(file.name) : current?.mediaName;

  return (
    <Dialog open={open} onClose={onClose} maxWidth="sm" fullWidth>
      <DialogTitle>
        {t(current ? 'quickMessages.dialog.editTitle' : 'quickMessages.dialog.addTitle')}
      </DialogTitle>
      <form noValidate onSubmit={onSubmit}>
        <DialogContent dividers>
          <Stack spacing={2}>
            <TextField
              {...register('shortcode')}
              label={t('quickMessages.dialog.shortcode')}
              fullWidth
              autoFocus
              error={Boolean(errors.shortcode)}
              helperText={fieldError(errors.shortcode?.message)}
            />
            <TextField
              {...register('message')}
              label={t('quickMessages.dialog.message')}
              fullWidth
              multiline
              minRows={4}
            />
            {canSetGeneral(profile) && (
              <Controller
                control={control}
                name="geral"
                render={({ field }) => (
                  <FormControlLabel
                    label={t('quickMessages.dialog.geral')}
                    control={
                      <Switch
                        checked={field.value === true || field.value === 'true'}
                        onChange={(e) => field.onChange(e.target.checked)}
                      />
                    }
                  />
                )}
              />
            )}
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
              <Typography variant="body2" data-testid="quick-message-media-name">
                {mediaName ?? t('quickMessages.noMedia')}
              </Typography>
              <IconButton aria-label={t('admin.attach')} onClick={() => fileInput.current?.click()}>
                <AttachFile />
              </IconButton>
              {mediaName && (
                <IconButton aria-label={t('admin.removeAttachment')} onClick={removeMedia}>
                  <DeleteOutlined />
                </IconButton>
              )}
              <input
                ref={fileInput}
                type="file"
                hidden
                data-testid="quick-message-media-input"
                onChange={(e) => setFile(e.target.files?.[0] ?? null)}
              />
            </Stack>
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
