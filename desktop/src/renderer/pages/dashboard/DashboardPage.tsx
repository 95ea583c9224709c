import { can } from '@atende/shared';
import { Navigate } from 'react-router-dom';
import { useSession } from '../../session/store';
import UnderConstruction from '../placeholder/UnderConstruction';

/** The dashboard is for admins (core §6); everyone else starts on /tickets. */
export default function DashboardPage() {
  const profile = useSession((s) => s.user?.profile);
  if (!profile || !can(profile, 'dashboard:view')) return <Navigate to="/tickets" replace />;
  return <UnderConstruction />;
}
