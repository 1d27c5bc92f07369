import * as z from 'zod';

export const MAIL_STATUSES = ['queued', 'sending', 'sent', 'failed'] as const;
export type MailStatus = (typeof MAIL_STATUSES)[number];

/** A page of the mail view: 50 messages unless asked otherwise; more than 200 is capped, not refused (as the audit's). */
export const MAIL_DEFAULT_PER_PAGE = 50;
export const MAIL_MAX_PER_PAGE = 200;

const wholeFromOne = (fallback: number) =>
  z
    .union([z.number(), z.string()])
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return fallback;
      const n = typeof v === 'number' ? v : /^\d{1,9}$/.test(v) ? Number(v) : Number.NaN;
      if (!Number.isSafeInteger(n) || n < 1) {
        ctx.addIssue({ code: 'custom', message: 'page and per_page are whole numbers from 1' });
        return z.NEVER;
      }
      return n;
    });

/** GET /api/mail?status=&page=&per_page= (query strings; the tRPC twin sends the same). */
export const mailListSchema = z.object({
  status: z.enum(MAIL_STATUSES, { error: 'status must be one of: queued, sending, sent, failed' }).optional(),
  page: wholeFromOne(1),
  per_page: wholeFromOne(MAIL_DEFAULT_PER_PAGE).transform((n) => Math.min(n, MAIL_MAX_PER_PAGE)),
});
export type MailListInput = Partial<z.output<typeof mailListSchema>>;
