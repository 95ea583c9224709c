import MuiLink, { type LinkProps } from '@mui/material/Link';
import { Link as RouterLink } from 'react-router-dom';

/** A MUI link that navigates inside the app. */
export function Link({ to, ...props }: LinkProps & { to: string }) {
  return <MuiLink component={RouterLink} to={to} {...props} />;
}
