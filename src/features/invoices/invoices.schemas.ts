import * as z from 'zod';

/**
 * POST /orders/sendReminder's optional body and tRPC invoices.remind's extra input: `force: true` sends a
 * reminder before the invoice's payment term has run out, which is otherwise refused (docs/decisions/059).
 */
export const reminderOptionsSchema = z.object({
  force: z.boolean({ error: 'force must be true or false' }).optional(),
});
