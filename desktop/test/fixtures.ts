import { contactAnswer, chatMessageAnswer, ticketAnswer } from '@atende/shared';
import type { Contact, Message, Ticket, User } from '../src/renderer/api/types';

const DAY = 86_400_000;

export const makeUser = (overrides: Partial<User> = {}): User => ({
  id: 9,
  name: 'Ana',
  email: 'ana@empresa.com',
  profile: 'user',
  super: false,
  companyId: 4,
  whatsappId: null,
  allTicket: 'desabled',
  online: true,
  queues: [{ id: 3, name: 'Vendas', color: '#00ff00' }],
  createdAt: new Date(Date.now() - 30 * DAY).toISOString(),
  updatedAt: new Date(Date.now() - DAY).toISOString(),
  company: {
    id: 4,
    name: 'Empresa',
    dueDate: new Date(Date.now() + 30 * DAY).toISOString(),
    planId: 1,
    settings: [],
  },
  ...overrides,
});

export const allPlanFlags = {
  useCampaigns: true,
  useSchedules: true,
  useInternalChat: true,
  useExternalApi: true,
  useKanban: true,
  useOpenAi: true,
  useIntegrations: true,
};

const EPOCH = '2025-01-01T10:00:00.000Z';

/**
 * Server answers for tests, built whole and checked against the route table's answer schemas,
 * so a fixture cannot hold a shape the server never sends.
 */
export const makeContact = (overrides: Partial<Contact> = {}): Contact =>
  contactAnswer.parse({
    id: 1,
    name: 'Ana Souza',
    number: '5511987654321',
    lid: null,
    email: '',
    profilePicUrl: '',
    urlPicture: '',
    isGroup: false,
    extraInfo: [],
    createdAt: EPOCH,
    updatedAt: EPOCH,
    ...overrides,
  });

export const makeTicket = (id: number, overrides: Partial<Ticket> = {}): Ticket =>
  ticketAnswer.parse({
    id,
    uuid: `uuid-${id}`,
    status: 'pending',
    contactId: id,
    whatsappId: 1,
    userId: null,
    queueId: null,
    lastMessage: '',
    unreadMessages: 0,
    isGroup: false,
    chatbot: false,
    useIntegration: false,
    promptId: null,
    integrationId: null,
    createdAt: EPOCH,
    updatedAt: EPOCH,
    contact: { id, name: `C${id}`, number: '5511999999999', profilePicUrl: '', email: '' },
    user: null,
    queue: null,
    whatsapp: { id: 1, name: 'Loja' },
    tags: [],
    ...overrides,
  });

export const makeMessage = (id: number, overrides: Partial<Message> = {}): Message =>
  chatMessageAnswer.parse({
    id,
    ticketId: 1,
    contactId: 1,
    whatsappId: 1,
    wid: `wid-${id}`,
    body: `m${id}`,
    fromMe: false,
    read: false,
    ack: 0,
    mediaType: 'chat',
    mediaUrl: null,
    fileName: null,
    isDeleted: false,
    isEdited: false,
    previousBodies: [],
    reactions: [],
    location: null,
    vcards: null,
    participant: null,
    quotedMsgId: null,
    quotedMsg: null,
    contact: null,
    clientId: null,
    userId: null,
    sendError: null,
    createdAt: EPOCH,
    updatedAt: EPOCH,
    ...overrides,
  });
