import { z } from 'zod';
import { emailSchema, lineSchema } from './common.js';

export const loginBody = z.object({
  email: emailSchema,
  password: lineSchema(200).min(1),
});
export type LoginBody = z.infer<typeof loginBody>;

/** Reset-password rule of secondary §5. */
export const RESET_PASSWORD_MESSAGE =
  'Sua senha precisa ter no mínimo 8 caracteres, sendo uma letra maiúscula, uma minúscula e um número.';
export const strongPassword = z
  .string()
  .min(8, RESET_PASSWORD_MESSAGE)
  .max(50)
  .regex(/[a-z]/, RESET_PASSWORD_MESSAGE)
  .regex(/[A-Z]/, RESET_PASSWORD_MESSAGE)
  .regex(/\d/, RESET_PASSWORD_MESSAGE);

export const forgotParams = z.object({ email: emailSchema });
export const resetParams = z.object({
  email: emailSchema,
  token: lineSchema(20).trim().min(1),
  newPassword: lineSchema(200),
});
