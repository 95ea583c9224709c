import { z } from 'zod';
import { PROFILES } from '../domain/permissions.js';
import { endpoint } from './endpoint.js';
import {
  emailSchema,
  idParams,
  lineSchema,
  messageAnswer,
  nameSchema,
  pageQuery,
  ref,
  wireDate,
  wireInt,
} from './common.js';
import { refOrNone } from './liberal.js';

/** User form rules of admin §5: name 2–50, password 5–50, e-mail required and valid. */
export const userPassword = lineSchema(50).min(5, 'Too Short!').max(50, 'Too Long!');

export const userInput = z.object({
  name: nameSchema,
  email: emailSchema,
  password: userPassword,
  profile: z.enum(PROFILES).optional(),
  allTicket: z.enum(['enabled', 'desabled']).optional(),
  whatsappId: refOrNone('whatsapp'),
  queueIds: z.array(ref('queue')).max(500).optional(),
});
export type UserInput = z.infer<typeof userInput>;

export const userUpdate = userInput.partial().extend({
  password: userPassword.optional().or(z.literal('').transform(() => undefined)),
});
export type UserUpdate = z.infer<typeof userUpdate>;

/** A queue as a user answer lists it. */
const userQueue = z.object({ id: wireInt, name: z.string(), color: z.string() });

/** A user as the routes answer it (admin §5; never the password hash). */
export const userAnswer = z.object({
  id: wireInt,
  name: z.string(),
  email: z.string(),
  profile: z.enum(PROFILES),
  super: z.boolean(),
  companyId: wireInt,
  whatsappId: wireInt.nullable(),
  allTicket: z.enum(['enabled', 'desabled']),
  online: z.boolean(),
  queues: z.array(userQueue),
  createdAt: wireDate,
  updatedAt: wireDate,
});
export type UserAnswer = z.infer<typeof userAnswer>;

/** Users (admin §7): the admin list, the picker list, CRUD. */
export const userEndpoints = {
  listUsers: endpoint({
    method: 'get',
    path: '/users',
    summary: 'A page of the company users',
    tag: 'users',
    query: pageQuery,
    response: z.object({ users: z.array(userAnswer), count: wireInt, hasMore: z.boolean() }),
  }),
  userList: endpoint({
    method: 'get',
    path: '/users/list',
    summary: 'Every user of the company, by name (companyId is accepted and ignored)',
    tag: 'users',
    query: z.object({ companyId: z.unknown().optional() }),
    response: z.array(userAnswer),
  }),
  showUser: endpoint({
    method: 'get',
    path: '/users/:id',
    summary: 'One user',
    tag: 'users',
    params: idParams,
    response: userAnswer,
  }),
  createUser: endpoint({
    method: 'post',
    path: '/users',
    summary: 'Creates a user (admin)',
    tag: 'users',
    access: 'admin',
    body: userInput,
    status: 201,
    response: userAnswer,
  }),
  updateUser: endpoint({
    method: 'put',
    path: '/users/:id',
    summary: 'Changes a user (profile and queues for admins; anyone their own name and password)',
    tag: 'users',
    params: idParams,
    body: userUpdate,
    response: userAnswer,
  }),
  deleteUser: endpoint({
    method: 'delete',
    path: '/users/:id',
    summary: 'Deletes a user (admin); their sessions end',
    tag: 'users',
    access: 'admin',
    params: idParams,
    response: messageAnswer,
  }),
} as const;
