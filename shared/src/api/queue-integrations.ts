import { z } from 'zod';
import { DIALOGFLOW_LANGUAGES, INTEGRATION_TYPES } from '../domain/automation.js';
import {
  idParams,
  lineSchema,
  messageAnswer,
  nameSchema,
  pageQuery,
  ref,
  textSchema,
  wireDate,
  wireInt,
} from './common.js';
import { endpoint } from './endpoint.js';
import { optionalChoice } from './liberal.js';

/**
 * Queue integrations (secondary §2, §3, §7; issue 18 item 2): Dialogflow ES, n8n, webhook and
 * Typebot, attached to a queue. Credentials (the Dialogflow service-account JSON, the webhook
 * signing secret) are sealed at rest and never answered: the answer says whether one is set and
 * its last 4 characters.
 */

const whole = (min: number, max: number) =>
  z
    .union([z.number(), z.string().trim().regex(/^\d+$/).transform(Number)])
    .pipe(z.number().int().min(min).max(max));

/**
 * What the dialog sends (the Whaticket form sends every field for every type). Fields a type
 * does not use are stored empty. On update, an empty `jsonContent` keeps the stored one.
 */
export const queueIntegrationInput = z.object({
  type: z.enum(INTEGRATION_TYPES, { error: 'Required' }),
  name: nameSchema,
  projectName: lineSchema(100).trim().optional(),
  jsonContent: textSchema(20_000).optional(),
  language: optionalChoice(DIALOGFLOW_LANGUAGES),
  /** n8n and webhook: where deliveries go; typebot: the Typebot viewer's base URL. */
  urlN8N: lineSchema(2_000).trim().optional(),
  typebotSlug: lineSchema(200).trim().optional(),
  /** Minutes of silence after which a Typebot conversation starts over (0: never). */
  typebotExpires: whole(0, 10_080).optional(),
  /** Milliseconds between two Typebot bubbles. */
  typebotDelayMessage: whole(0, 60_000).optional(),
  typebotKeywordFinish: lineSchema(100).optional(),
  typebotKeywordRestart: lineSchema(100).optional(),
  typebotUnknownMessage: textSchema(1_000).optional(),
  typebotRestartMessage: textSchema(1_000).optional(),
});
export type QueueIntegrationInput = z.infer<typeof queueIntegrationInput>;
export const queueIntegrationUpdate = queueIntegrationInput.partial();
export type QueueIntegrationUpdate = z.infer<typeof queueIntegrationUpdate>;

/** A sealed credential as any client sees it. */
export const credentialAnswer = z.object({
  set: z.boolean(),
  last4: z.string().nullable(),
  masked: z.string(),
});

/** A queue integration as the routes answer it: no credential, ever. */
export const queueIntegrationAnswer = z.object({
  id: wireInt,
  companyId: wireInt,
  type: z.enum(INTEGRATION_TYPES),
  name: z.string(),
  projectName: z.string(),
  /** Always '' (the service-account JSON is never sent back); see `credential`. */
  jsonContent: z.string(),
  /** Dialogflow: the `project_id` read from the service-account JSON. */
  projectId: z.string().nullable(),
  /** Dialogflow: the service-account JSON (last 4 of its `private_key_id`). */
  credential: credentialAnswer,
  /** n8n and webhook: the signing secret (shown whole only once, when it is made). */
  signingSecret: credentialAnswer,
  language: z.string(),
  urlN8N: z.string(),
  typebotSlug: z.string(),
  typebotExpires: wireInt,
  typebotDelayMessage: wireInt,
  typebotKeywordFinish: z.string(),
  typebotKeywordRestart: z.string(),
  typebotUnknownMessage: z.string(),
  typebotRestartMessage: z.string(),
  createdAt: wireDate,
  updatedAt: wireDate,
});
export type QueueIntegrationAnswer = z.infer<typeof queueIntegrationAnswer>;

/** Creating an n8n or webhook integration (or rotating its secret) shows the secret once. */
export const queueIntegrationCreated = queueIntegrationAnswer.extend({
  webhookSecret: z.string().optional(),
});

/** `POST /queueIntegration/testSession`: a token and one detectIntent with the given account. */
export const testSessionInput = z.object({
  projectName: lineSchema(100).optional(),
  /** The service-account JSON; empty with `id` uses the stored one. */
  jsonContent: textSchema(20_000).optional(),
  language: optionalChoice(DIALOGFLOW_LANGUAGES),
  id: ref('integration').optional(),
});
export const testSessionAnswer = z.object({
  message: z.string(),
  projectId: z.string(),
  intent: z.string().nullable(),
  texts: z.array(z.string()),
});

export const DELIVERY_STATUSES = ['pending', 'delivered', 'dead'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** A webhook/n8n delivery as the dead-letter list shows it (never the payload's secrets: none). */
export const deliveryAnswer = z.object({
  id: wireInt,
  integrationId: wireInt,
  integrationName: z.string(),
  ticketId: wireInt.nullable(),
  messageId: wireInt.nullable(),
  deliveryId: z.string(),
  status: z.enum(DELIVERY_STATUSES),
  attempts: wireInt,
  lastError: z.string().nullable(),
  lastStatus: wireInt.nullable(),
  createdAt: wireDate,
  updatedAt: wireDate,
});
export type DeliveryAnswer = z.infer<typeof deliveryAnswer>;

export const deliveryListQuery = pageQuery.extend({
  status: optionalChoice(DELIVERY_STATUSES),
  integrationId: ref('integration').optional(),
});

const plan = 'useIntegrations' as const;
const tag = 'queue integrations';

export const queueIntegrationEndpoints = {
  listQueueIntegrations: endpoint({
    method: 'get',
    path: '/queueIntegration',
    summary: 'A page of queue integrations (search by name)',
    tag,
    access: 'admin',
    plan,
    query: pageQuery,
    response: z.object({
      queueIntegrations: z.array(queueIntegrationAnswer),
      count: wireInt,
      hasMore: z.boolean(),
    }),
  }),
  testSession: endpoint({
    method: 'post',
    path: '/queueIntegration/testSession',
    summary: 'Checks a Dialogflow service account: token exchange and one detectIntent',
    tag,
    access: 'admin',
    plan,
    body: testSessionInput,
    response: testSessionAnswer,
  }),
  listDeliveries: endpoint({
    method: 'get',
    path: '/queueIntegration/deliveries',
    summary: 'Webhook and n8n deliveries (status dead: the dead letters)',
    tag,
    access: 'admin',
    plan,
    query: deliveryListQuery,
    response: z.object({ deliveries: z.array(deliveryAnswer), hasMore: z.boolean() }),
  }),
  replayDelivery: endpoint({
    method: 'post',
    path: '/queueIntegration/deliveries/:id/replay',
    summary: 'Sends a dead-lettered delivery again (same webhook-id)',
    tag,
    access: 'admin',
    plan,
    params: idParams,
    response: deliveryAnswer,
  }),
  showQueueIntegration: endpoint({
    method: 'get',
    path: '/queueIntegration/:id',
    summary: 'One queue integration',
    tag,
    access: 'admin',
    plan,
    params: idParams,
    response: queueIntegrationAnswer,
  }),
  createQueueIntegration: endpoint({
    method: 'post',
    path: '/queueIntegration',
    summary: 'Creates a queue integration (credentials checked with the service)',
    tag,
    access: 'admin',
    plan,
    body: queueIntegrationInput,
    response: queueIntegrationCreated,
  }),
  updateQueueIntegration: endpoint({
    method: 'put',
    path: '/queueIntegration/:id',
    summary: 'Changes a queue integration (credentials checked with the service)',
    tag,
    access: 'admin',
    plan,
    params: idParams,
    body: queueIntegrationUpdate,
    response: queueIntegrationAnswer,
  }),
  rotateQueueIntegrationSecret: endpoint({
    method: 'post',
    path: '/queueIntegration/:id/rotateSecret',
    summary: 'A new webhook signing secret, shown once',
    tag,
    access: 'admin',
    plan,
    params: idParams,
    response: queueIntegrationCreated,
  }),
  deleteQueueIntegration: endpoint({
    method: 'delete',
    path: '/queueIntegration/:id',
    summary: 'Deletes a queue integration (queues using it lose it)',
    tag,
    access: 'admin',
    plan,
    params: idParams,
    response: messageAnswer,
  }),
} as const;
