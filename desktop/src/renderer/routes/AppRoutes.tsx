import { Suspense } from 'react';
import { Navigate, Route, Routes } from 'react-router-dom';
import { campaignsVisible } from '../session/storage';
import { PageLoader, PublicOnly, RequireAuth, RequirePermission } from './guards';
import {
  DashboardPage,
  ForgotPasswordPage,
  LoginPage,
  PrivacyPage,
  Shell,
  SignupPage,
  TermsPage,
  TicketsPage,
  UnderConstruction,
  ConnectionsPage,
  QueuesPage,
  UsersPage,
  SettingsPage,
  TagsPage,
  QuickMessagesPage,
  ContactsPage,
} from './pages';

/** Private pages not built yet that every user may open: a placeholder until their issue lands. */
export const PLACEHOLDER_ROUTES = [
  '/todolist',
  '/schedules',
  '/helps',
  '/kanban',
  '/subscription',
  '/chats/:id?',
];

/** The Administration block of core §2: only users holding 'drawer-admin-items:view'. */
export const ADMIN_PLACEHOLDER_ROUTES = [
  '/files',
  '/prompts',
  '/queue-integration',
  '/messages-api',
  '/financeiro',
];

/** Every address an agent without the admin permission is sent away from (to `/`). */
export const ADMIN_ROUTES = [
  '/connections',
  '/queues',
  '/users',
  '/settings',
  ...ADMIN_PLACEHOLDER_ROUTES,
  '/announcements',
];

/** Exist only when the browser-storage flag cshow is defined (core §2). */
export const CAMPAIGN_ROUTES = [
  '/contact-lists',
  '/contact-lists/:contactListId/contacts',
  '/campaigns',
  '/campaign/:campaignId/report',
  '/campaigns-config',
];

export function AppRoutes() {
  const campaigns = campaignsVisible();
  return (
    <Suspense fallback={<PageLoader />}>
      <Routes>
        <Route element={<PublicOnly />}>
          <Route path="/login" element={<LoginPage />} />
          <Route path="/signup" element={<SignupPage />} />
          <Route path="/forgetpsw" element={<ForgotPasswordPage />} />
        </Route>
        <Route path="/term" element={<TermsPage />} />
        <Route path="/privacy" element={<PrivacyPage />} />
        <Route element={<RequireAuth />}>
          <Route element={<Shell />}>
            <Route index element={<DashboardPage />} />
            <Route path="/tickets/:ticketId?" element={<TicketsPage />} />
            <Route path="/contacts" element={<ContactsPage />} />
            <Route path="/tags" element={<TagsPage />} />
            <Route path="/quick-messages" element={<QuickMessagesPage />} />
            {PLACEHOLDER_ROUTES.map((path) => (
              <Route key={path} path={path} element={<UnderConstruction />} />
            ))}
            <Route element={<RequirePermission permission="drawer-admin-items:view" />}>
              <Route path="/connections" element={<ConnectionsPage />} />
              <Route path="/queues" element={<QueuesPage />} />
              <Route path="/users" element={<UsersPage />} />
              <Route path="/settings" element={<SettingsPage />} />
              {ADMIN_PLACEHOLDER_ROUTES.map((path) => (
                <Route key={path} path={path} element={<UnderConstruction />} />
              ))}
              {campaigns &&
                CAMPAIGN_ROUTES.map((path) => (
                  <Route key={path} path={path} element={<UnderConstruction />} />
                ))}
            </Route>
            <Route element={<RequirePermission permission="drawer-admin-items:view" superOnly />}>
              <Route path="/announcements" element={<UnderConstruction />} />
            </Route>
          </Route>
        </Route>
        <Route path="*" element={<Navigate to="/" replace />} />
      </Routes>
    </Suspense>
  );
}
