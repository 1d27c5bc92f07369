import * as z from 'zod';
import { AUDIT_ACTIONS } from './audit-actions';

/** docs/architecture.md §5 `per_page` ≤ 200: more is capped, not refused. */
export const AUDIT_MAX_PER_PAGE = 200;
export const AUDIT_DEFAULT_PER_PAGE = 50;

const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'Dates are YYYY-MM-DD' })
  .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)), { error: 'Dates are YYYY-MM-DD' });

/** An empty filter field (a cleared input in the URL) means no filter. */
const blankAsMissing = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema);

const positiveInt = (fallback: number) =>
  z
    .union([z.string(), z.number()])
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return fallback;
      const n = Number(v);
      if (!Number.isSafeInteger(n) || n < 1) {
        ctx.addIssue({ code: 'custom', message: 'page and per_page are whole numbers from 1' });
        return z.NEVER;
      }
      return n;
    });

/** GET /api/audit?actor=&action=&from=&to=&page=&per_page= (query strings; the tRPC twin sends the same). */
export const auditQuerySchema = z.object({
  actor: z
    .string()
    .trim()
    .max(64, { error: 'actor is too long' })
    .optional()
    .transform((v) => (v ? v : undefined)),
  action: blankAsMissing(z.enum(AUDIT_ACTIONS, { error: 'Unknown action' }).optional()),
  from: blankAsMissing(isoDate.optional()),
  to: blankAsMissing(isoDate.optional()),
  page: positiveInt(1),
  per_page: positiveInt(AUDIT_DEFAULT_PER_PAGE).transform((n) => Math.min(n, AUDIT_MAX_PER_PAGE)),
});
export type AuditQuery = z.output<typeof auditQuerySchema>;
