import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import type { ReactNode } from 'react';
import { Controller, get, useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { PasswordField } from '../components/PasswordField';
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
  value: string | number;
  label: string;
}

/**
 * One choice among `options`; the field holds the option's own value (a number stays a number).
 * With `none`, a first entry of that label stands for null.
 */
export function SelectInput({
  name,
  label,
  options,
  none,
}: FieldProps & { options: readonly Choice[]; none?: string }) {
  const { control } = useFormContext();
  const message = useFieldMessage(name);
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <TextField
          select
          fullWidth
          label={label}
          value={field.value == null ? '' : String(field.value)}
          onChange={(e) => {
            const picked = options.find((o) => String(o.value) === e.target.value);
            field.onChange(picked ? picked.value : null);
          }}
          error={Boolean(message)}
          helperText={message}
        >
          {none !== undefined && <MenuItem value="">{none}</MenuItem>}
          {options.map((o) => (
            <MenuItem key={o.value} value={String(o.value)}>
              {o.label}
            </MenuItem>
          ))}
        </TextField>
      )}
    />
  );
}

/** Several ids among `options` (queues). */
export function MultiSelectInput({
  name,
  label,
  options,
}: FieldProps & { options: readonly { id: number; name: string }[] }) {
  const { control } = useFormContext();
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <TextField
          select
          fullWidth
          label={label}
          value={(field.value as number[] | undefined) ?? []}
          onChange={(e) => field.onChange(e.target.value as unknown as number[])}
          slotProps={{ select: { multiple: true } }}
        >
          {options.map((o) => (
            <MenuItem key={o.id} value={o.id}>
              {o.name}
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
