import { z } from 'zod';
import { PROFILES } from '../domain/permissions.js';
import { emailSchema, idSchema, nameSchema } from './common.js';
import { idOrNone } from './liberal.js';

/** User form rules of admin §5: name 2–50, password 5–50, e-mail required and valid. */
export const userPassword = z.string().min(5, 'Too Short!').max(50, 'Too Long!');

export const userInput = z.object({
  name: nameSchema,
  email: emailSchema,
  password: userPassword,
  profile: z.enum(PROFILES).optional(),
  allTicket: z.enum(['enabled', 'desabled']).optional(),
  whatsappId: idOrNone,
  queueIds: z.array(idSchema).max(500).optional(),
});
export type UserInput = z.infer<typeof userInput>;

export const userUpdate = userInput.partial().extend({
  password: userPassword.optional().or(z.literal('').transform(() => undefined)),
});
export type UserUpdate = z.infer<typeof userUpdate>;
