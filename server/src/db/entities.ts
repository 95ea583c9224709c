import { CompanyEntity } from '../modules/companies/company.entity.js';
import { PlanEntity } from '../modules/plans/plan.entity.js';
import { QueueEntity } from '../modules/queues/queue.entity.js';
import { SettingEntity } from '../modules/settings/setting.entity.js';
import { UserEntity } from '../modules/users/user.entity.js';
import { WhatsappEntity } from '../modules/whatsapps/whatsapp.entity.js';
import { ContactEntity } from '../modules/contacts/contact.entity.js';
import { TicketEntity } from '../modules/tickets/ticket.entity.js';
import { MessageEntity } from '../modules/messages/message.entity.js';
import { TicketNoteEntity } from '../modules/notes/ticket-note.entity.js';
import { TagEntity } from '../modules/tags/tag.entity.js';
import { QueueOptionEntity } from '../modules/queue-options/queue-option.entity.js';
import { QuickMessageEntity } from '../modules/quick-messages/quick-message.entity.js';
import { DeadLetterEntity } from '../whatsapp/dead-letter.entity.js';
import { billingEntities } from '../modules/billing/entities.js';

/** Every entity the data source knows. Add new ones at the end. */
export const entities = [
  PlanEntity,
  CompanyEntity,
  UserEntity,
  SettingEntity,
  QueueEntity,
  WhatsappEntity,
  ContactEntity,
  TicketEntity,
  MessageEntity,
  TicketNoteEntity,
  TagEntity,
  QueueOptionEntity,
  QuickMessageEntity,
  DeadLetterEntity,
  ...billingEntities,
];
