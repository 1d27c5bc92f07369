import * as z from 'zod';

export const SETTING_TYPES = ['string', 'integer', 'boolean', 'json', 'password'] as const;
export const SETTING_VISIBILITIES = ['public', 'private', 'admin'] as const;
export type SettingType = (typeof SETTING_TYPES)[number];
export type SettingVisibility = (typeof SETTING_VISIBILITIES)[number];

export const MAX_SETTING_VALUE_LENGTH = 10_000;
const REQUIRED = 'Key, value and type are required.';

const settingKey = z
  .string({ error: REQUIRED })
  .trim()
  .min(1, { error: REQUIRED })
  .max(64, { error: 'Key is too long (at most 64 characters).' })
  .regex(/^[a-z][a-z0-9_.-]*$/, { error: 'Key must start with a lowercase letter and contain only a-z, 0-9, _ . -' });

/** JSON clients may send typed values; they are stored as text. */
const settingValue = z
  .union([z.string(), z.number(), z.boolean()], { error: REQUIRED })
  .transform((v) => (typeof v === 'string' ? v : String(v)))
  .refine((v) => v.length <= MAX_SETTING_VALUE_LENGTH, { error: `Value is too long (at most ${MAX_SETTING_VALUE_LENGTH} characters).` });

/** A min/max bound: absent → undefined (an edit keeps the stored bound), null or '' → no bound. */
const optionalBound = z
  .union([z.number(), z.string(), z.null()])
  .optional()
  .transform((v, ctx) => {
    if (v === undefined) return undefined;
    if (v === null || (typeof v === 'string' && v.trim() === '')) return null;
    const n = typeof v === 'number' ? v : Number(v.trim());
    if (!Number.isSafeInteger(n)) {
      ctx.addIssue({ code: 'custom', message: 'Minimum and maximum must be whole numbers.' });
      return z.NEVER;
    }
    return n;
  });

/** docs/product.md §3 Setting, as the add and edit calls send it (docs/architecture.md §4). */
export const settingInputSchema = z.object({
  key: settingKey,
  value: settingValue,
  type: z.enum(SETTING_TYPES, { error: REQUIRED }),
  description: z.string().max(500, { error: 'Description is too long (at most 500 characters).' }).optional().default(''),
  visibility: z.enum(SETTING_VISIBILITIES, { error: 'Visibility must be public, private or admin.' }).optional().default('public'),
  deletable: z.boolean({ error: 'deletable must be true or false.' }).optional(),
  min_value: optionalBound,
  max_value: optionalBound,
  group_name: z
    .string()
    .max(64, { error: 'Group is too long (at most 64 characters).' })
    .optional()
    .transform((v) => (v === undefined || v.trim() === '' ? 'general' : v.trim())),
});
export type SettingInput = z.output<typeof settingInputSchema>;

export const settingUpdateSchema = z.object({
  key: settingKey,
  value: settingValue,
});

export const settingKeySchema = z.object({ key: settingKey });
