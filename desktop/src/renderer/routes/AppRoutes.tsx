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
  ConnectionsPage,
  QueuesPage,
  UsersPage,
  SettingsPage,
  TagsPage,
  QuickMessagesPage,
  ContactsPage,
  FinanceiroPage,
  SubscriptionPage,
  HelpsPage,
  ContactListsPage,
  ContactListItemsPage,
  FilesPage,
  CampaignsPage,
  CampaignReportPage,
  CampaignSettingsPage,
  SchedulesPage,
  KanbanPage,
  ChatsPage,
  AnnouncementsPage,
  TodoListPage,
  QueueIntegrationPage,
  PromptsPage,
  MessagesApiPage,
} from './pages';

/** Every address an agent without the admin permission is sent away from (to `/`). */
export const ADMIN_ROUTES = [
  '/connections',
  '/queues',
  '/users',
  '/settings',
  '/financeiro',
  '/files',
  '/queue-integration',
  '/prompts',
  '/messages-api',
  '/announcements',
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
            <Route path="/subscription" element={<SubscriptionPage />} />
            <Route path="/helps" element={<HelpsPage />} />
            <Route path="/schedules" element={<SchedulesPage />} />
            <Route path="/kanban" element={<KanbanPage />} />
            <Route path="/chats/:id?" element={<ChatsPage />} />
            <Route path="/todolist" element={<TodoListPage />} />
            {/* The page itself refuses a non-super user: the error, then / after 1 s. */}
            <Route path="/announcements" element={<AnnouncementsPage />} />
            <Route element={<RequirePermission permission="drawer-admin-items:view" />}>
              <Route path="/connections" element={<ConnectionsPage />} />
              <Route path="/queues" element={<QueuesPage />} />
              <Route path="/users" element={<UsersPage />} />
              <Route path="/settings" element={<SettingsPage />} />
              <Route path="/financeiro" element={<FinanceiroPage />} />
              <Route path="/files" element={<FilesPage />} />
              <Route path="/queue-integration" element={<QueueIntegrationPage />} />
              <Route path="/prompts" element={<PromptsPage />} />
              <Route path="/messages-api" element={<MessagesApiPage />} />
              {campaigns && (
                <>
                  <Route path="/contact-lists" element={<ContactListsPage />} />
                  <Route
                    path="/contact-lists/:contactListId/contacts"
                    element={<ContactListItemsPage />}
                  />
                </>
              )}
              {campaigns && <Route path="/campaigns" element={<CampaignsPage />} />}
              {campaigns && (
                <Route path="/campaign/:campaignId/report" element={<CampaignReportPage />} />
              )}
              {campaigns && <Route path="/campaigns-config" element={<CampaignSettingsPage />} />}
              {campaigns && <Route path="/campaign-settings" element={<CampaignSettingsPage />} />}
            </Route>
          </Route>
        </Route>
        <Route path="*" element={<Navigate to="/" replace />} />
      </Routes>
    </Suspense>
  );
}
