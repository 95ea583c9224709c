import { RESET_PASSWORD_MESSAGE, resetPasswordProblems } from '@atende/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { z } from 'zod';
import { ApiError } from '../../api/errors';
import { AuthLayout } from '../../components/AuthLayout';
import { Link } from '../../components/Link';
import { PasswordField } from '../../components/PasswordField';
import { useFieldError } from '../../components/useFieldError';
import { publicApi } from '../../session/store';
import { toast } from '../../ui/toast';
import { useErrorToast } from '../../ui/useErrorToast';

/** secondary §9: the step flips 400 ms after the e-mail was sent. */
export const RESET_STEP_DELAY_MS = 400;

const emailStep = z.object({
  email: z.string().trim().min(1, 'Required').email('Invalid email'),
});

const PROBLEM_MESSAGES = {
  required: 'Campo obrigatório',
  weak: RESET_PASSWORD_MESSAGE,
  mismatch: 'As senhas não correspondem',
} as const;

/** secondary §5: password rules apply only in step 2. */
const resetStep = z
  .object({
    token: z.string().trim().min(1, 'Campo obrigatório'),
    newPassword: z.string(),
    confirmPassword: z.string(),
  })
  .superRefine(({ newPassword, confirmPassword }, ctx) => {
    const problems = resetPasswordProblems(newPassword, confirmPassword);
    if (problems.newPassword) {
      ctx.addIssue({
        code: 'custom',
        path: ['newPassword'],
        message: PROBLEM_MESSAGES[problems.newPassword],
      });
    }
    if (problems.confirmPassword) {
      ctx.addIssue({
        code: 'custom',
        path: ['confirmPassword'],
        message: PROBLEM_MESSAGES[problems.confirmPassword],
      });
    }
  });

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** /forgetpsw: step 1 sends the code by e-mail, step 2 sets the new password. */
export default function ForgotPasswordPage() {
  const { t } = useTranslation();
  const [email, setEmail] = useState<string | null>(null);
  return (
    <AuthLayout title={t('forgot.title')}>
      {email === null ? <EmailStep onSent={setEmail} /> : <ResetStep email={email} />}
      <Link to="/signup" variant="body2" sx={{ display: 'block', mt: 2, textAlign: 'right' }}>
        {t('forgot.signup')}
      </Link>
    </AuthLayout>
  );
}

function EmailStep({ onSent }: { onSent(email: string): void }) {
  const { t } = useTranslation();
  const fieldError = useFieldError();
  const showError = useErrorToast();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<z.infer<typeof emailStep>>({
    resolver: zodResolver(emailStep),
    defaultValues: { email: '' },
  });

  const onSubmit = handleSubmit(async ({ email }) => {
    try {
      await publicApi.post(`/forgetpassword/${encodeURIComponent(email)}`);
      toast.success(t('forgot.emailSent'));
    } catch (error) {
      // A failed request stays on step 1 so the address can be corrected (docs/decisions.md).
      if (error instanceof ApiError && error.status === 404) toast.error(t('forgot.emailNotFound'));
      else showError(error);
      return;
    }
    await wait(RESET_STEP_DELAY_MS);
    onSent(email);
  });

  return (
    <Box component="form" noValidate onSubmit={onSubmit}>
      <Stack spacing={2}>
        <TextField
          {...register('email')}
          label={t('forgot.email')}
          type="email"
          autoComplete="email"
          autoFocus
          required
          fullWidth
          error={!!errors.email}
          helperText={fieldError(errors.email?.message)}
        />
        <Button type="submit" variant="contained" size="large" disabled={isSubmitting}>
          {t('forgot.sendEmail')}
        </Button>
      </Stack>
    </Box>
  );
}

function ResetStep({ email }: { email: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const fieldError = useFieldError();
  const showError = useErrorToast();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<z.infer<typeof resetStep>>({
    resolver: zodResolver(resetStep),
    defaultValues: { token: '', newPassword: '', confirmPassword: '' },
  });

  const onSubmit = handleSubmit(async ({ token, newPassword }) => {
    try {
      const path = [email, token, newPassword].map(encodeURIComponent).join('/');
      await publicApi.post(`/resetpasswords/${path}`);
      toast.success(t('forgot.resetDone'));
      navigate('/login');
    } catch (error) {
      showError(error);
    }
  });

  return (
    <Box component="form" noValidate onSubmit={onSubmit}>
      <Stack spacing={2}>
        <TextField
          {...register('token')}
          label={t('forgot.token')}
          autoComplete="one-time-code"
          autoFocus
          required
          fullWidth
          error={!!errors.token}
          helperText={fieldError(errors.token?.message)}
        />
        <PasswordField
          {...register('newPassword')}
          toggleLabel={t('forgot.togglePassword')}
          label={t('forgot.newPassword')}
          autoComplete="new-password"
          required
          fullWidth
          error={!!errors.newPassword}
          helperText={fieldError(errors.newPassword?.message)}
        />
        <PasswordField
          {...register('confirmPassword')}
          toggleLabel={t('forgot.togglePassword')}
          label={t('forgot.confirmPassword')}
          autoComplete="new-password"
          required
          fullWidth
          error={!!errors.confirmPassword}
          helperText={fieldError(errors.confirmPassword?.message)}
        />
        <Button type="submit" variant="contained" size="large" disabled={isSubmitting}>
          {t('forgot.reset')}
        </Button>
      </Stack>
    </Box>
  );
}
