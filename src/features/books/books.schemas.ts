import * as z from 'zod';

const YEAR = 'year must be a year between 2000 and 2100';

/** GET /orders/export/journal.csv `?year=`: the calendar year in Dutch time; absent means this year. */
export const journalQuerySchema = z.object({
  year: z
    .string()
    .regex(/^\d{4}$/, { error: YEAR })
    .transform(Number)
    .refine((year) => year >= 2000 && year <= 2100, { error: YEAR })
    .optional(),
});
