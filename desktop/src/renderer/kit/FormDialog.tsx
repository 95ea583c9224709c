import { zodResolver } from '@hookform/resolvers/zod';
import Button from '@mui/material/Button';
import Dialog, { type DialogProps } from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import type { Theme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useEffect, type ReactNode } from 'react';
import {
  FormProvider,
  useForm,
  type DefaultValues,
  type FieldValues,
  type Resolver,
  type UseFormReturn,
} from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { toast } from '../ui/toast';
import { useErrorToast } from '../ui/useErrorToast';
import './i18n';

interface Props<In extends FieldValues, Out, Saved> {
  open: boolean;
  /** The record being edited (null: adding); a list page's dialog props spread in. */
  record?: unknown;
  /**
   * The page's i18n bundle: the title is `{texts}.dialog.editTitle` or `.addTitle`, the success
   * toast `{texts}.saved`.
   */
  texts: string;
  /** Whether the title says edit; default: there is a `record`. */
  editing?: boolean;
  /** The form's rules: the shared schema of the route, with the spec's messages. */
  schema: z.ZodType<Out, In>;
  /** The fields' values when the dialog opens (memoise them: a new object resets the form). */
  values: In;
  /** Checks what lies outside the form (another tab); false stops the save. */
  ready?(): boolean;
  /** Sends the checked values; what it answers goes to `onSaved`. */
  submit(values: Out): Promise<Saved>;
  onSaved?(saved: Saved): void;
  onClose(): void;
  /** The cancel button (default: 'Cancelar', closes); a dialog may ask first. */
  cancelLabel?: string;
  onCancel?(): void;
  /** Stays open after this save (a new queue stays open for its option tree). */
  keepOpen?(saved: Saved): boolean;
  maxWidth?: DialogProps['maxWidth'];
  /** Between the title and the fields (tabs). */
  header?: ReactNode;
  /** At the start of the buttons row (a note on unsaved parts). */
  footer?: ReactNode;
  /** The fields; they read the form through `useFormContext` (see `fields.tsx`). */
  children: ReactNode | ((form: UseFormReturn<In, unknown, Out>) => ReactNode);
  /** Below the form, inside the dialog (a question the dialog asks). */
  after?: ReactNode;
}

/**
 * An add/edit dialog on react-hook-form + zod: the values reset each time it opens, nothing is
 * sent while a rule fails (the field shows the spec's message, translated), a server refusal
 * shows the error toast and keeps the dialog open, a save shows `{texts}.saved`. Full screen on
 * a phone.
 */
export function FormDialog<In extends FieldValues, Out, Saved>(props: Props<In, Out, Saved>) {
  const { t } = useTranslation();
  const showError = useErrorToast();
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const { open, values, onClose, texts } = props;
  const editing = props.editing ?? Boolean(props.record);
  const form = useForm<In, unknown, Out>({
    resolver: zodResolver(props.schema as never) as unknown as Resolver<In, unknown, Out>,
    defaultValues: values as DefaultValues<In>,
  });
  const { reset, handleSubmit, formState } = form;

  useEffect(() => {
    if (open) reset(values);
  }, [open, values, reset]);

  const onSubmit = handleSubmit(async (checked) => {
    if (props.ready && !props.ready()) return;
    try {
      const saved = await props.submit(checked);
      toast.success(t(`${texts}.saved`));
      props.onSaved?.(saved);
      if (!props.keepOpen?.(saved)) onClose();
    } catch (error) {
      showError(error);
    }
  });
  const cancel = props.onCancel ?? onClose;

  return (
    <Dialog
      open={open}
      onClose={cancel}
      maxWidth={props.maxWidth ?? 'sm'}
      fullWidth
      fullScreen={phone}
      scroll="paper"
    >
      <DialogTitle>{t(`${texts}.dialog.${editing ? 'editTitle' : 'addTitle'}`)}</DialogTitle>
      {props.header}
      <FormProvider {...form}>
        <form
          noValidate
          onSubmit={onSubmit}
          style={{ display: 'flex', flexDirection: 'column', minHeight: 0, flex: 1 }}
        >
          <DialogContent dividers>
            <Stack spacing={2}>
              {typeof props.children === 'function' ? props.children(form) : props.children}
            </Stack>
          </DialogContent>
          <DialogActions>
            {props.footer}
            <Button onClick={cancel}>{props.cancelLabel ?? t('common.cancel')}</Button>
            <Button type="submit" variant="contained" disabled={formState.isSubmitting}>
              {t('common.save')}
            </Button>
          </DialogActions>
        </form>
      </FormProvider>
      {props.after}
    </Dialog>
  );
}
