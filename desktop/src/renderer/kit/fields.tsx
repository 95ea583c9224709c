import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import { useEffect, useState, type ReactNode } from 'react';
import { Controller, get, useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { api } from '../api';
import { PasswordField } from '../components/PasswordField';
import { useErrorToast } from '../ui/useErrorToast';
import { ColorPicker } from './ColorPicker';
import { useAdminFieldError } from './validation';

/**
 * The fields of a `FormDialog`: each reads the form through `useFormContext` by `name` and shows
 * its rule's message (translated) under it.
 */
interface FieldProps {
  name: string;
  label: string;
}

function useFieldMessage(name: string): string | undefined {
  const { formState } = useFormContext();
  const fieldError = useAdminFieldError();
  return fieldError((get(formState.errors, name) as { message?: string } | undefined)?.message);
}

type TextProps = FieldProps & Omit<TextFieldProps, 'name' | 'label' | 'error'>;

/** A text (or number, with `type="number"`) field. */
export function TextInput({ name, label, helperText, ...rest }: TextProps) {
  const { register } = useFormContext();
  const message = useFieldMessage(name);
  return (
    <TextField
      {...register(name)}
      label={label}
      fullWidth
      error={Boolean(message)}
      helperText={message ?? helperText}
      {...rest}
    />
  );
}

/** A password field with its show/hide toggle; `hint` shows while there is no error. */
export function PasswordInput({ name, label, hint }: FieldProps & { hint?: string }) {
  const { t } = useTranslation();
  const { register } = useFormContext();
  const message = useFieldMessage(name);
  return (
    <PasswordField
      {...register(name)}
      label={label}
      toggleLabel={t('login.showPassword')}
      fullWidth
      autoComplete="new-password"
      error={Boolean(message)}
      helperText={message ?? hint}
    />
  );
}

/** An on/off switch. A string 'true' (as some routes answer) reads as on. */
export function SwitchInput({ name, label }: FieldProps) {
  const { control } = useFormContext();
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <FormControlLabel
          label={label}
          sx={{ flexShrink: 0 }}
          control={
            <Switch
              checked={field.value === true || field.value === 'true'}
              onChange={(e) => field.onChange(e.target.checked)}
            />
          }
        />
      )}
    />
  );
}

export interface Choice {
  value: string | number | boolean;
  label: string;
}

/**
 * One choice among `options`, or several with `multiple`; the field holds the options' own values
 * (a number stays a number, a boolean a boolean). With `none`, a first entry of that label stands for null.
 */
export function SelectInput({
  name,
  label,
  options,
  none,
  multiple = false,
}: FieldProps & { options: readonly Choice[]; none?: string; multiple?: boolean }) {
  const { control } = useFormContext();
  const message = useFieldMessage(name);
  const valueOf = (text: string) => options.find((o) => String(o.value) === text)?.value ?? null;
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <TextField
          select
          fullWidth
          label={label}
          value={
            multiple
              ? ((field.value as unknown[] | undefined) ?? []).map(String)
              : field.value == null
                ? ''
                : String(field.value)
          }
          onChange={(e) => {
            const picked = e.target.value as string | string[];
            field.onChange(Array.isArray(picked) ? picked.map(valueOf) : valueOf(picked));
          }}
          error={Boolean(message)}
          helperText={message}
          slotProps={{ select: { multiple } }}
        >
          {none !== undefined && <MenuItem value="">{none}</MenuItem>}
          {options.map((o) => (
            <MenuItem key={String(o.value)} value={String(o.value)}>
              {o.label}
            </MenuItem>
          ))}
        </TextField>
      )}
    />
  );
}

/** A colour with the 49-colour palette (admin §9). */
export function ColorInput({ name, label }: FieldProps) {
  const { control } = useFormContext();
  const message = useFieldMessage(name);
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <ColorPicker
          name={name}
          label={label}
          value={(field.value as string | undefined) ?? ''}
          onChange={field.onChange}
          error={message}
        />
      )}
    />
  );
}

/** Fields side by side on a wide screen, stacked on a phone. */
export function FieldRow({ children, center }: { children: ReactNode; center?: boolean }) {
  return (
    <Stack
      direction={{ xs: 'column', sm: 'row' }}
      spacing={2}
      sx={{ alignItems: { sm: center ? 'center' : 'flex-start' } }}
    >
      {children}
    </Stack>
  );
}

/**
 * The choices of a lookup route answering `{id, name}[]` (`/queue`, `/whatsapp`), loaded when
 * `enabled` turns on (a dialog opening); a failure shows the error toast.
 */
export function useChoices(path: string, enabled: boolean): Choice[] {
  const showError = useErrorToast();
  const [choices, setChoices] = useState<Choice[]>([]);
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    api
      .get<{ id: number; name: string }[]>(path)
      .then((rows) => live && setChoices(rows.map((r) => ({ value: r.id, label: r.name }))))
      .catch((error: unknown) => live && showError(error));
    return () => {
      live = false;
    };
  }, [path, enabled, showError]);
  return choices;
}
