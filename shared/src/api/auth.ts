import { z } from 'zod';
import { endpoint } from './endpoint.js';
import { emailSchema, lineSchema, messageAnswer, wireInt } from './common.js';
import { userAnswer } from './users.js';

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

/** The signed-in user: the user answer with the company's due date, plan and settings. */
export const sessionUserAnswer = userAnswer.extend({
  company: z.object({
    id: wireInt,
    name: z.string(),
    dueDate: z.string().nullable(),
    planId: wireInt.nullable(),
    settings: z.array(z.object({ key: z.string(), value: z.string() })),
  }),
});
export type SessionUserAnswer = z.infer<typeof sessionUserAnswer>;

/** What sign-in and refresh answer (the refresh token goes in the `jrt` cookie). */
export const sessionAnswer = z.object({ token: z.string(), user: sessionUserAnswer });
export type SessionAnswer = z.infer<typeof sessionAnswer>;

/** Sign-in, refresh, sign-out and password reset (core §4, §7; secondary §5). */
export const authEndpoints = {
  login: endpoint({
    method: 'post',
    path: '/auth/login',
    summary: 'Signs in: an access token, the user, and the refresh cookie',
    tag: 'auth',
    access: 'public',
    body: loginBody,
    response: sessionAnswer,
  }),
  refreshToken: endpoint({
    method: 'post',
    path: '/auth/refresh_token',
    summary: 'A new access token from the refresh cookie (the cookie rotates)',
    tag: 'auth',
    access: 'public',
    response: sessionAnswer,
  }),
  logout: endpoint({
    method: 'delete',
    path: '/auth/logout',
    summary: 'Ends the session of the bearer token or of the refresh cookie',
    tag: 'auth',
    access: 'public',
    response: messageAnswer,
  }),
  me: endpoint({
    method: 'get',
    path: '/auth/me',
    summary: 'The signed-in user',
    tag: 'auth',
    response: sessionUserAnswer,
  }),
  forgotPassword: endpoint({
    method: 'post',
    path: '/forgetpassword/:email',
    summary: 'Mails a 6-digit code to reset the password',
    tag: 'auth',
    access: 'public',
    params: forgotParams,
    response: z.object({ status: wireInt, message: z.string() }),
  }),
  resetPassword: endpoint({
    method: 'post',
    path: '/resetpasswords/:email/:token/:newPassword',
    summary: 'Sets a new password with the mailed code; every session ends',
    tag: 'auth',
    access: 'public',
    params: resetParams,
    response: messageAnswer,
  }),
} as const;
