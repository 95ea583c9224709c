import { z } from 'zod';

/** A numeric id in a path or query: digits only, positive. */
export const idSchema = z.coerce.number().int().positive().max(2_147_483_647);
export const idParams = z.object({ id: idSchema });

export const pageQuery = z.object({
  searchParam: z.string().max(200).optional().default(''),
  pageNumber: z.coerce.number().int().min(1).max(100_000).optional().default(1),
});

/** Name rule shared by users, contacts, queues and connections: 2 to 50 characters. */
export const nameSchema = z
  .string({ error: 'Required' })
  .trim()
  .min(2, 'Too Short!')
  .max(50, 'Too Long!');

export const emailSchema = z.string({ error: 'Required' }).trim().email('Invalid email').max(255);
