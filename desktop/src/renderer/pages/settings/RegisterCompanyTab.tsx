import Box from '@mui/material/Box';
import { SignupForm } from '../signup/SignupForm';

/** Register company tab (admin §2): the sign-up form, embedded; it stays here after a save. */
export function RegisterCompanyTab() {
  return (
    <Box sx={{ maxWidth: 480 }}>
      <SignupForm autoFocus={false} onDone={() => undefined} />
    </Box>
  );
}
