import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import { can, type Permission } from '@atende/shared';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { useSession } from '../session/store';

export function PageLoader() {
  return (
    <Box sx={{ display: 'grid', placeItems: 'center', minHeight: '50vh' }} role="progressbar">
      <CircularProgress />
    </Box>
  );
}

/** Private routes: an unauthenticated user goes to /login (core §2). */
export function RequireAuth() {
  const status = useSession((s) => s.status);
  const location = useLocation();
  if (status === 'loading') return <PageLoader />;
  if (status === 'anonymous') return <Navigate to="/login" replace state={{ from: location }} />;
  return <Outlet />;
}

/** Public routes: an authenticated user goes to / (core §2). */
export function PublicOnly() {
  const status = useSession((s) => s.status);
  if (status === 'loading') return <PageLoader />;
  if (status === 'authenticated') return <Navigate to="/" replace />;
  return <Outlet />;
}

/**
 * Routes behind a permission (core §6): a user without it who opens the address is sent to `/`,
 * not only spared the menu item. `superOnly` keeps a route to super users.
 */
export function RequirePermission({
  permission,
  superOnly = false,
}: {
  permission: Permission;
  superOnly?: boolean;
}) {
  const user = useSession((s) => s.user);
  if (!user) return <PageLoader />;
  const allowed = can(user.profile, permission) && (!superOnly || user.super);
  return allowed ? <Outlet /> : <Navigate to="/" replace />;
}
