import { lazy } from 'react';

/** Every page is its own chunk, so the first route stays small (≤400 KB gzip JS). */
export const LoginPage = lazy(() => import('../pages/login/LoginPage'));
export const SignupPage = lazy(() => import('../pages/signup/SignupPage'));
export const ForgotPasswordPage = lazy(() => import('../pages/forgetpsw/ForgotPasswordPage'));
export const TermsPage = lazy(() => import('../pages/legal/TermsPage'));
export const PrivacyPage = lazy(() => import('../pages/legal/PrivacyPage'));
export const Shell = lazy(() => import('../layout/Shell'));
export const DashboardPage = lazy(() => import('../pages/dashboard/DashboardPage'));
export const TicketsPage = lazy(() => import('../pages/tickets/TicketsPage'));
export const UnderConstruction = lazy(() => import('../pages/placeholder/UnderConstruction'));
export const ConnectionsPage = lazy(() => import('../pages/connections/ConnectionsPage'));
export const QueuesPage = lazy(() => import('../pages/queues/QueuesPage'));
export const UsersPage = lazy(() => import('../pages/users/UsersPage'));
export const SettingsPage = lazy(() => import('../pages/settings/SettingsPage'));
export const TagsPage = lazy(() => import('../pages/tags/TagsPage'));
export const QuickMessagesPage = lazy(() => import('../pages/quick-messages/QuickMessagesPage'));
export const ContactsPage = lazy(() => import('../pages/contacts/ContactsPage'));
