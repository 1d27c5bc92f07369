import * as z from 'zod';

export const MAIL_STATUSES = ['queued', 'sending', 'sent', 'failed'] as const;
export type MailStatus = (typeof MAIL_STATUSES)[number];

/** GET /api/mail filters (query strings; the tRPC twin sends the same). */
export const mailListSchema = z.object({
  status: z.enum(MAIL_STATUSES, { error: 'status must be one of: queued, sending, sent, failed' }).optional(),
  limit: z
    .union([z.number(), z.string()])
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return undefined;
      const n = typeof v === 'number' ? v : /^\d{1,4}$/.test(v) ? Number(v) : NaN;
      if (!Number.isInteger(n) || n < 1 || n > 1000) {
        ctx.addIssue({ code: 'custom', message: 'limit must be a whole number from 1 to 1000' });
        return z.NEVER;
      }
      return n;
    }),
});
export type MailListInput = Partial<z.output<typeof mailListSchema>>;
