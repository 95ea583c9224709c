import Add from '@mui/icons-material/Add';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { zodResolver } from '@hookform/resolvers/zod';
import { contactEndpoints, contactInput } from '@atende/shared';
import { useEffect } from 'react';
import { useFieldArray, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { api, ApiError } from '../../../api';
import type { Contact } from '../../../api/types';
import { useFieldError } from '../../../components/useFieldError';
import { toast } from '../../../ui/toast';
import { useErrorToast } from '../../../ui/useErrorToast';

type ContactForm = z.input<typeof contactInput>;
type ContactBody = z.output<typeof contactInput>;
type EditedContact = Pick<Contact, 'id' | 'name' | 'number' | 'email'> &
  Partial<Pick<Contact, 'extraInfo'>>;

interface Props {
  open: boolean;
  /** The contact to edit (its extra info once loaded); without it the dialog adds one. */
  contact?: EditedContact | null;
  /** A free-typed name from the new-ticket search. */
  initialName?: string;
  onClose(): void;
  onSaved?(contact: Contact): void;
}

const blank = (contact?: EditedContact | null, name = ''): ContactForm => ({
  name: contact?.name ?? name,
  number: contact?.number ?? '',
  email: contact?.email ?? '',
  extraInfo: contact?.extraInfo?.map(({ name: n, value }) => ({ name: n, value })) ?? [],
});

/** Add or edit a contact: main info plus extra info as name/value pairs (core §2, §5). */
export function ContactDialog({ open, contact, initialName, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  const fieldError = useFieldError();
  const showError = useErrorToast();
  const {
    register,
    control,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<ContactForm, unknown, ContactBody>({
    resolver: zodResolver(contactInput),
    defaultValues: blank(contact, initialName),
  });
  const extra = useFieldArray({ control, name: 'extraInfo' });

  useEffect(() => {
    if (open) reset(blank(contact, initialName));
  }, [open, contact, initialName, reset]);

  const submit = handleSubmit(async (body) => {
    try {
      const saved = contact
        ? await api.call(contactEndpoints.updateContact, { params: { id: contact.id }, body })
        : await api.call(contactEndpoints.createContact, { body });
      // A number WhatsApp does not know: nothing was stored, the dialog stays open.
      if ('invalido' in saved) return showError(new ApiError(200, saved.error, undefined));
      if ('alreadyExists' in saved) {
        toast.info(t('contactModal.exists', { name: saved.existingContact.name }));
        onSaved?.(saved.existingContact);
      } else {
        toast.success(t('contactModal.saved'));
        onSaved?.(saved);
      }
      onClose();
    } catch (error) {
      showError(error);
    }
  });

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm">
      <form onSubmit={(e) => void submit(e)} noValidate>
        <DialogTitle>{t(contact ? 'contactModal.editTitle' : 'contactModal.addTitle')}</DialogTitle>
        <DialogContent sx={{ display: 'grid', gap: 2, pt: '8px !important' }}>
          <TextField
            label={t('contactModal.name')}
            autoFocus
            {...register('name')}
            error={!!errors.name}
            helperText={fieldError(errors.name?.message)}
          />
          <TextField
            label={t('contactModal.number')}
            placeholder="5511999999999"
            {...register('number')}
            error={!!errors.number}
            helperText={fieldError(errors.number?.message)}
          />
          <TextField
            label={t('contactModal.email')}
            {...register('email')}
            error={!!errors.email}
            helperText={fieldError(errors.email?.message)}
          />
          <Typography variant="subtitle2">{t('contactModal.extraInfo')}</Typography>
          {extra.fields.map((field, index) => (
            <Box key={field.id} sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
              <TextField
                size="small"
                label={t('contactModal.extraName')}
                {...register(`extraInfo.${index}.name`)}
                error={!!errors.extraInfo?.[index]?.name}
              />
              <TextField
                size="small"
                sx={{ flex: 1 }}
                label={t('contactModal.extraValue')}
                {...register(`extraInfo.${index}.value`)}
              />
              <IconButton
                aria-label={t('contactModal.removeExtra')}
                onClick={() => extra.remove(index)}
              >
                <DeleteOutline />
              </IconButton>
            </Box>
          ))}
          <Button
            startIcon={<Add />}
            sx={{ justifySelf: 'start' }}
            onClick={() => extra.append({ name: '', value: '' })}
          >
            {t('contactModal.addExtra')}
          </Button>
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
