import { z } from 'zod';
import { PROFILES } from '../domain/permissions.js';
import { emailSchema, lineSchema, nameSchema, ref } from './common.js';
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
