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
export const ConnectionsPage = lazy(() => import('../pages/connections/ConnectionsPage'));
export const QueuesPage = lazy(() => import('../pages/queues/QueuesPage'));
export const UsersPage = lazy(() => import('../pages/users/UsersPage'));
export const SettingsPage = lazy(() => import('../pages/settings/SettingsPage'));
export const TagsPage = lazy(() => import('../pages/tags/TagsPage'));
export const QuickMessagesPage = lazy(() => import('../pages/quick-messages/QuickMessagesPage'));
export const ContactsPage = lazy(() => import('../pages/contacts/ContactsPage'));
export const FinanceiroPage = lazy(() => import('../pages/financeiro/FinanceiroPage'));
export const SubscriptionPage = lazy(() => import('../pages/subscription/SubscriptionPage'));
export const HelpsPage = lazy(() => import('../pages/helps/HelpsPage'));
export const ContactListsPage = lazy(() => import('../pages/contact-lists/ContactListsPage'));
export const ContactListItemsPage = lazy(
  () => import('../pages/contact-lists/ContactListItemsPage'),
);
export const FilesPage = lazy(() => import('../pages/files/FilesPage'));
export const CampaignsPage = lazy(() => import('../pages/campaigns/CampaignsPage'));
export const CampaignReportPage = lazy(() => import('../pages/campaigns/CampaignReportPage'));
export const CampaignSettingsPage = lazy(() => import('../pages/campaigns/CampaignSettingsPage'));
export const SchedulesPage = lazy(() => import('../pages/schedules/SchedulesPage'));
export const KanbanPage = lazy(() => import('../pages/kanban/KanbanPage'));
export const ChatsPage = lazy(() => import('../pages/chats/ChatsPage'));
export const AnnouncementsPage = lazy(() => import('../pages/announcements/AnnouncementsPage'));
export const TodoListPage = lazy(() => import('../pages/todolist/TodoListPage'));
export const QueueIntegrationPage = lazy(
  () => import('../pages/queue-integration/QueueIntegrationPage'),
);
export const PromptsPage = lazy(() => import('../pages/prompts/PromptsPage'));
export const MessagesApiPage = lazy(() => import('../pages/messages-api/MessagesApiPage'));
