import {
  maskBrazilianPhoneInput,
  signupBody,
  SIGNUP_PHONE_MAX_DIGITS,
  type SignupBody,
} from '@atende/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useEffect, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import type { Plan } from '../../api/types';
import { PasswordField } from '../../components/PasswordField';
import { useFieldError } from '../../components/useFieldError';
import { publicApi } from '../../session/store';
import { toast } from '../../ui/toast';
import { useErrorToast } from '../../ui/useErrorToast';

type SignupForm = z.input<typeof signupBody>;

/** The masked phone holds 11 digits plus "(", ")", " " and "-". */
const MASKED_PHONE_MAX_LENGTH = SIGNUP_PHONE_MAX_DIGITS + 4;

/**
 * The sign-up form (admin §2): name, phone (Brazilian mask, max 11), email, password, plan. The
 * /signup page and the settings' Register company tab both show it.
 */
export function SignupForm({
  companyId,
  onDone,
  autoFocus = true,
}: {
  /** The optional companyId of the /signup query string. */
  companyId?: string | null;
  onDone(): void;
  autoFocus?: boolean;
}) {
  const { t } = useTranslation();
  const showError = useErrorToast();
  const fieldError = useFieldError();
  const [plans, setPlans] = useState<Plan[]>([]);
  const {
    register,
    control,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<SignupForm, unknown, SignupBody>({
    resolver: zodResolver(signupBody),
    defaultValues: { name: '', phone: '', email: '', password: '', planId: '' as never },
  });

  useEffect(() => {
    publicApi.get<Plan[]>('/plans/list', { auth: false }).then(setPlans).catch(showError);
  }, [showError]);

  const onSubmit = handleSubmit(async (body) => {
    try {
      await publicApi.post('/companies/cadastro', body, {
        query: companyId ? { companyId } : undefined,
      });
      toast.success(t('signup.success'));
      reset();
      onDone();
    } catch (error) {
      showError(error);
    }
  });

  return (
    <Box component="form" noValidate onSubmit={onSubmit}>
      <Stack spacing={2}>
        <TextField
          {...register('name')}
          label={t('signup.name')}
          required
          fullWidth
          autoFocus={autoFocus}
          error={!!errors.name}
          helperText={fieldError(errors.name?.message)}
        />
        <Controller
          control={control}
          name="phone"
          render={({ field }) => (
            <TextField
              {...field}
              onChange={(e) => field.onChange(maskBrazilianPhoneInput(e.target.value))}
              label={t('signup.phone')}
              type="tel"
              required
              fullWidth
              placeholder="(11) 99999-9999"
              error={!!errors.phone}
              helperText={fieldError(errors.phone?.message)}
              slotProps={{ htmlInput: { maxLength: MASKED_PHONE_MAX_LENGTH, inputMode: 'tel' } }}
            />
          )}
        />
        <TextField
          {...register('email')}
          label={t('signup.email')}
          type="email"
          autoComplete="email"
          required
          fullWidth
          error={!!errors.email}
          helperText={fieldError(errors.email?.message)}
        />
        <PasswordField
          {...register('password')}
          toggleLabel={t('login.showPassword')}
          label={t('signup.password')}
          autoComplete="new-password"
          required
          fullWidth
          error={!!errors.password}
          helperText={fieldError(errors.password?.message)}
        />
        <Controller
          control={control}
          name="planId"
          render={({ field }) => (
            <TextField
              {...field}
              value={field.value ?? ''}
              select
              label={t('signup.plan')}
              required
              fullWidth
              error={!!errors.planId}
              helperText={errors.planId ? t('validation.required') : undefined}
            >
              {plans.map((plan) => (
                <MenuItem key={plan.id} value={plan.id}>
                  {t('signup.planOption', {
                    name: plan.name,
                    users: plan.users,
                    connections: plan.connections,
                    queues: plan.queues,
                    value: plan.value,
                  })}
                </MenuItem>
              ))}
            </TextField>
          )}
        />
        <Button type="submit" variant="contained" size="large" disabled={isSubmitting}>
          {t('signup.submit')}
        </Button>
      </Stack>
    </Box>
  );
}
