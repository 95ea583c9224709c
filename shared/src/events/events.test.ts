import { describe, expect, it } from 'vitest';
import {
  CHANGE_ENTITIES,
  CHANGE_PAYLOADS,
  COMPANY_EVENTS,
  COMPANY_EVENT_NAMES,
  ENTITY_OF_EVENT,
  EVENT_OF_ENTITY,
  companyEvent,
  companyEventName,
  feedAnswer,
  handshakeAuth,
  type CompanyEventName,
} from './index.js';

const ticket = { id: 7, status: 'open', userId: 3, queueId: null, contact: { id: 2 } };

// [event, payload, valid]
const cases: [CompanyEventName, unknown, boolean][] = [
  ['ticket', { action: 'update', ticket, seq: 4 }, true],
  ['ticket', { action: 'update', ticket: { ...ticket, status: undefined } }, false],
  ['ticket', { action: 'delete', ticketId: 7 }, true],
  ['ticket', { action: 'delete', ticketId: '7' }, false],
  ['ticket', { action: 'updateUnread', ticketId: 7, seq: 9 }, true],
  ['ticket', { action: 'close', ticketId: 7 }, false],
  ['ticket', { action: 'update', ticket, seq: -1 }, false],
  [
    'appMessage',
    { action: 'create', message: { id: 1, ticketId: 7 }, ticket, contact: null },
    true,
  ],
  ['appMessage', { action: 'create', message: { id: 1 }, ticket, contact: null }, false],
  [
    'appMessage',
    { action: 'delete', message: { id: 1, ticketId: 7 }, ticket, contact: null },
    false,
  ],
  ['contact', { action: 'create', contact: { id: 2, name: 'Bia' } }, true],
  ['contact', { action: 'delete', contactId: 2, mergedInto: 3 }, true],
  ['contact', { action: 'delete', contact: { id: 2 } }, false],
  ['tag', { action: 'update', tag: { id: 5, name: 'Urgente' } }, true],
  ['tag', { action: 'delete', tagId: 5 }, true],
  ['tag', { action: 'update', tag: { name: 'sem id' } }, false],
  ['user', { action: 'delete', userId: 3 }, true],
  ['user', { action: 'update', user: { id: 3, name: 'Ana' } }, true],
  ['auth', { action: 'update', user: { id: 3 } }, true],
  ['auth', { action: 'delete', user: { id: 3 } }, false],
  ['settings', { action: 'update', setting: { key: 'userRating', value: 'enabled' } }, true],
  ['settings', { action: 'update', marker: 'x' }, false],
  ['company', { action: 'update', company: { id: 1, name: 'Empresa' } }, true],
  ['whatsapp', { action: 'delete', whatsappId: 4 }, true],
  ['whatsapp', { action: 'update', whatsapp: { id: 4, status: 'CONNECTED' } }, true],
  [
    'whatsappSession',
    { action: 'update', session: { id: 4, status: 'qrcode', qrcode: 'q' } },
    true,
  ],
  ['whatsappSession', { action: 'update', session: { id: 4 } }, false],
  ['queue', { action: 'create', queue: { id: 1, name: 'Vendas' } }, true],
  ['queue', { action: 'delete', queueId: 1 }, true],
  ['quickmessage', { action: 'delete', record: { id: 8 }, id: 8 }, true],
  ['quickmessage', { action: 'remove', record: { id: 8 }, id: 8 }, false],
  ['chat', { action: 'new-message', newMessage: { id: 1, chatId: 2 }, chat: { id: 2 } }, true],
  ['chat', { action: 'new-message', newMessage: {} }, false],
  ['chat', { action: 'update', chat: { id: 2, users: [] } }, true],
  ['chat', { action: 'delete', chatId: 2, id: 2 }, true],
  ['payment', { action: 'CONCLUIDA', company: { id: 1, dueDate: '2025-07-10' } }, true],
  ['payment', { action: 'CONCLUIDA', company: { id: 1 } }, false],
  ['payment', { action: 'PENDENTE', company: { id: 1, dueDate: '2025-07-10' } }, false],
  ['payment', {}, false],
];

describe('company event schemas', () => {
  it.each(cases)('%s %j → valid %s', (name, payload, valid) => {
    expect(COMPANY_EVENTS[name].safeParse(payload).success).toBe(valid);
  });

  it('keep the fields of an entity they do not name', () => {
    const parsed = COMPANY_EVENTS.ticket.parse({ action: 'update', ticket });
    expect(parsed).toEqual({ action: 'update', ticket });
  });
});

describe('channels', () => {
  it.each([
    [3, 'company-3-ticket', 'ticket'],
    [3, 'company-3-appMessage', 'appMessage'],
    [3, 'company-31-ticket', null],
    [3, 'company-3-unknown', null],
    [3, 'ready', null],
  ] as const)('company %i, %s → %s', (companyId, event, name) => {
    expect(companyEventName(companyId, event)).toBe(name);
  });

  it('names every event company-{id}-{name}', () => {
    for (const name of COMPANY_EVENT_NAMES) {
      expect(companyEventName(12, companyEvent(12, name))).toBe(name);
    }
  });
});

describe('the entity ↔ event map', () => {
  it.each([
    ['ticket', 'ticket'],
    ['message', 'appMessage'],
    ['contact', 'contact'],
    ['tag', 'tag'],
    ['note', null],
    ['chat', 'chat'],
  ] as const)('feed entity %s is published as %s', (entity, event) => {
    expect(EVENT_OF_ENTITY[entity]).toBe(event);
    if (event) expect(ENTITY_OF_EVENT[event]).toBe(entity);
  });

  it('has a payload schema for every feed entity', () => {
    for (const entity of CHANGE_ENTITIES) expect(CHANGE_PAYLOADS[entity]).toBeDefined();
    expect(Object.keys(ENTITY_OF_EVENT).sort()).toEqual([
      'appMessage',
      'chat',
      'contact',
      'tag',
      'ticket',
    ]);
  });
});

describe('the feed answer and the handshake', () => {
  const change = { seq: 3, entity: 'ticket', entityId: 7, action: 'update', payload: {} };
  it.each([
    [{ changes: [change], hasMore: false, last: 3, head: 3 }, true],
    [{ changes: [], hasMore: false, last: 0 }, true],
    [{ resetRequired: true, head: 40 }, true],
    [{ resetRequired: true }, false],
    [{ changes: [{ ...change, seq: -3 }], hasMore: false, last: 3 }, false],
    [{ changes: [change], last: 3 }, false],
  ])('%j → valid %s', (answer, valid) => {
    expect(feedAnswer.safeParse(answer).success).toBe(valid);
  });

  it.each([
    [{ token: 't' }, true],
    [{ token: 't', protocol: 1 }, true],
    [{ token: 't', protocol: '1' }, false],
    [{ token: '' }, false],
  ])('handshake %j → valid %s', (auth, valid) => {
    expect(handshakeAuth.safeParse(auth).success).toBe(valid);
  });
});
