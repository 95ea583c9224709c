import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { AuthLayout } from '../../components/AuthLayout';
import { Link } from '../../components/Link';
import { useLogo } from '../login/logos';
import { SignupForm } from './SignupForm';

/** admin §2 Sign-up at /signup (optional companyId in the query); on success go to /login. */
export default function SignupPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const logo = useLogo('signup');
  return (
    <AuthLayout title={t('signup.title')} logo={logo}>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t('signup.trial')}
      </Typography>
      <SignupForm companyId={params.get('companyId')} onDone={() => navigate('/login')} />
      <Link to="/login" variant="body2" sx={{ display: 'block', mt: 2, textAlign: 'right' }}>
        {t('signup.login')}
      </Link>
    </AuthLayout>
  );
}
