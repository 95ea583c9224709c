/**
 * The simulator's control API (only where SIMULATOR is on: development and tests): play the
 * phone, the customer and WhatsApp's servers for a connection whose provider is `simulator`.
 */
import { z } from 'zod';
import { endpoint } from './endpoint.js';
import { idParams, idSchema, wireInt } from './common.js';

const digits = z
  .string()
  .transform((v) => v.replace(/\D/g, ''))
  .pipe(z.string().min(8).max(20));

/** A customer's message to a simulated connection. */
export const simInboundBody = z
  .object({
    whatsappId: idSchema,
    from: digits,
    name: z.string().max(100).optional(),
    body: z.string().max(65_536).optional(),
    media: z
      .object({
        mimetype: z.string().min(3).max(100),
        fileName: z.string().max(255).optional(),
        base64: z.string().min(1),
      })
      .optional(),
    quotedId: z.string().min(1).max(128).optional(),
    id: z.string().min(1).max(128).optional(),
    lid: digits.optional(),
    group: z
      .object({ id: z.string().min(1).max(128), subject: z.string().max(100).optional() })
      .optional(),
  })
  .refine((b) => b.body !== undefined || b.media !== undefined, 'body or media is required');
export type SimInboundBody = z.output<typeof simInboundBody>;

export const simAckBody = z.object({
  whatsappId: idSchema,
  id: z.string().min(1).max(128),
  ack: z.number().int().min(0).max(5),
});

export const simFaultsBody = z.object({
  duplicate: z.boolean().optional(),
  outOfOrder: z.boolean().optional(),
  replayOnReconnect: z.boolean().optional(),
  ciphertextFirst: z.boolean().optional(),
  noReplay: z.boolean().optional(),
});

const simFaults = z.object({
  duplicate: z.boolean(),
  outOfOrder: z.boolean(),
  replayOnReconnect: z.boolean(),
  ciphertextFirst: z.boolean(),
  noReplay: z.boolean(),
});
const ok = z.object({ ok: z.literal(true) });

export const simulatorEndpoints = {
  connectionState: endpoint({
    method: 'get',
    path: '/simulator/connections/:id',
    summary: "A simulated connection's row status and the simulated phone's state",
    tag: 'simulator',
    access: 'admin',
    params: idParams,
    response: z.object({
      status: z.string(),
      qrcode: z.string(),
      retries: wireInt,
      linked: z.boolean(),
      number: z.string(),
      faults: simFaults,
      reads: z.array(z.string()),
      presence: z.record(z.string(), z.string()),
    }),
  }),
  deliveries: endpoint({
    method: 'get',
    path: '/simulator/connections/:id/deliveries',
    summary: 'How often each customer message was handed to the session',
    tag: 'simulator',
    access: 'admin',
    params: idParams,
    response: z.object({ handedOver: wireInt, redelivered: z.array(z.string()) }),
  }),
  scan: endpoint({
    method: 'post',
    path: '/simulator/connections/:id/scan',
    summary: 'The phone scans the QR code (links the session)',
    tag: 'simulator',
    access: 'admin',
    params: idParams,
    body: z.object({ number: digits.optional() }),
    response: ok,
  }),
  drop: endpoint({
    method: 'post',
    path: '/simulator/connections/:id/drop',
    summary: 'WhatsApp drops the connection with a close code',
    tag: 'simulator',
    access: 'admin',
    params: idParams,
    body: z.object({ code: z.number().int().min(100).max(999) }),
    response: ok,
  }),
  faults: endpoint({
    method: 'post',
    path: '/simulator/connections/:id/faults',
    summary: 'Switches delivery faults (duplicates, reordering, replays...)',
    tag: 'simulator',
    access: 'admin',
    params: idParams,
    body: simFaultsBody,
    response: simFaults,
  }),
  inbound: endpoint({
    method: 'post',
    path: '/simulator/inbound',
    summary: "A customer's message arrives",
    tag: 'simulator',
    access: 'admin',
    body: simInboundBody,
    response: z.object({ id: z.string() }),
  }),
  inboundBatch: endpoint({
    method: 'post',
    path: '/simulator/inbound/batch',
    summary: "Many customers' messages in one call (load tests)",
    tag: 'simulator',
    access: 'admin',
    body: z.object({ messages: z.array(simInboundBody).min(1).max(1000) }),
    response: z.object({ ids: z.array(z.string()) }),
  }),
  outbound: endpoint({
    method: 'get',
    path: '/simulator/outbound',
    summary: 'What the platform sent through a simulated connection, in order',
    tag: 'simulator',
    access: 'admin',
    query: z.object({ whatsappId: idSchema }),
    response: z.array(
      z.object({
        seq: wireInt,
        id: z.string(),
        kind: z.string(),
        to: z.string(),
        chatId: z.string(),
      }),
    ),
  }),
  ack: endpoint({
    method: 'post',
    path: '/simulator/ack',
    summary: "The customer's phone acknowledges a message (delivered, read...)",
    tag: 'simulator',
    access: 'admin',
    body: simAckBody,
    response: ok,
  }),
} as const;
