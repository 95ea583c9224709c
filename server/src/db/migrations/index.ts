import { Foundation1732233600000 } from './1732233600000-Foundation.js';
import { Whatsapps1732233700000 } from './1732233700000-Whatsapps.js';
import { Ticketing1732233800000 } from './1732233800000-Ticketing.js';
import { MessageProviderPayload1732233900000 } from './1732233900000-MessageProviderPayload.js';
import { WhatsappSessions1732233760000 } from './1732233760000-WhatsappSessions.js';
import { Routing1732235000000 } from './1732235000000-Routing.js';
import { ChangePending1732239000000 } from './1732239000000-ChangePending.js';
import { ChangePendingOrder1732239100000 } from './1732239100000-ChangePendingOrder.js';
import { DurableJobs1732240600000 } from './1732240600000-DurableJobs.js';
import { MediaUsage1732240500000 } from './1732240500000-MediaUsage.js';
import { AuthSessions1732240200000 } from './1732240200000-AuthSessions.js';
import { SessionInbox1732240300000 } from './1732240300000-SessionInbox.js';
import { ForeignReferences1732240100000 } from './1732240100000-ForeignReferences.js';
import { Billing1732241000000 } from './1732241000000-Billing.js';
import { DomainEvents1732240700000 } from './1732240700000-DomainEvents.js';
import { ContactLists1732242000000 } from './1732242000000-ContactLists.js';
import { HelpsAndLogos1732242100000 } from './1732242100000-HelpsAndLogos.js';
import { Campaigns1732242400000 } from './1732242400000-Campaigns.js';
import { ContactListImports1732242300000 } from './1732242300000-ContactListImports.js';
import { Schedules1732242500000 } from './1732242500000-Schedules.js';
import { InternalChat1732242600000 } from './1732242600000-InternalChat.js';
import { Announcements1732242610000 } from './1732242610000-Announcements.js';
import { QueueIntegrations1732242700000 } from './1732242700000-QueueIntegrations.js';
import { PromptsAndExternalApi1732242800000 } from './1732242800000-PromptsAndExternalApi.js';
import { RoutingConfigVersions1732243140000 } from './1732243140000-RoutingConfigVersions.js';
import { ChangeMembers1732243300000 } from './1732243300000-ChangeMembers.js';

/** Every migration, in order. Add new ones at the end. */
export const migrations = [
  Foundation1732233600000,
  Whatsapps1732233700000,
  WhatsappSessions1732233760000,
  Ticketing1732233800000,
  MessageProviderPayload1732233900000,
  Routing1732235000000,
  ChangePending1732239000000,
  ChangePendingOrder1732239100000,
  DurableJobs1732240600000,
  MediaUsage1732240500000,
  AuthSessions1732240200000,
  SessionInbox1732240300000,
  ForeignReferences1732240100000,
  Billing1732241000000,
  DomainEvents1732240700000,
  ContactLists1732242000000,
  HelpsAndLogos1732242100000,
  Campaigns1732242400000,
  ContactListImports1732242300000,
  Schedules1732242500000,
  InternalChat1732242600000,
  Announcements1732242610000,
  QueueIntegrations1732242700000,
  PromptsAndExternalApi1732242800000,
  RoutingConfigVersions1732243140000,
  ChangeMembers1732243300000,
];
