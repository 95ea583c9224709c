import { emailSchema } from '@atende/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { z } from 'zod';
import { AuthLayout } from '../../components/AuthLayout';
import { Link } from '../../components/Link';
import { PasswordField } from '../../components/PasswordField';
import { useFieldError } from '../../components/useFieldError';
import { useSession } from '../../session/store';
import { useErrorToast } from '../../ui/useErrorToast';
import { useLogo } from './logos';

const loginForm = z.object({
  email: emailSchema,
  password: z.string().min(1, 'Required'),
});
type LoginForm = z.infer<typeof loginForm>;

/** core §2 Login: email and password; after success the user goes to /tickets. */
export default function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const login = useSession((s) => s.login);
  const showError = useErrorToast();
  const fieldError = useFieldError();
  const logo = useLogo('login');
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<LoginForm>({
    resolver: zodResolver(loginForm),
    defaultValues: { email: '', password: '' },
  });

  const onSubmit = handleSubmit(async ({ email, password }) => {
    try {
      await login(email, password);
      navigate('/tickets', { replace: true });
    } catch (error) {
      showError(error);
    }
  });

  return (
    <AuthLayout title={t('login.title')} logo={logo}>
      <Box component="form" noValidate onSubmit={onSubmit}>
        <Stack spacing={2}>
          <TextField
            {...register('email')}
            label={t('login.email')}
            type="email"
            autoComplete="email"
            autoFocus
            required
            fullWidth
            error={!!errors.email}
            helperText={fieldError(errors.email?.message)}
          />
          <PasswordField
            {...register('password')}
            toggleLabel={t('login.showPassword')}
            label={t('login.password')}
            autoComplete="current-password"
            required
            fullWidth
            error={!!errors.password}
            helperText={fieldError(errors.password?.message)}
          />
          <Button type="submit" variant="contained" size="large" disabled={isSubmitting}>
            {t('login.submit')}
          </Button>
          <Stack direction="row" sx={{ justifyContent: 'space-between' }}>
            <Link to="/forgetpsw" variant="body2">
              {t('login.forgot')}
            </Link>
            <Link to="/signup" variant="body2">
              {t('login.signup')}
            </Link>
          </Stack>
          <Stack direction="row" spacing={2} sx={{ justifyContent: 'center' }}>
            <Link to="/term" variant="caption">
              {t('login.terms')}
            </Link>
            <Link to="/privacy" variant="caption">
              {t('login.privacy')}
            </Link>
          </Stack>
        </Stack>
      </Box>
    </AuthLayout>
  );
}
