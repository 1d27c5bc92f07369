import { refusalText } from '../../core/input-issues';
import * as z from 'zod';

/** docs/product.md §3 Permission: a dotted key, `prefix.action` (the admin screen groups by the prefix). */
export const PERMISSION_KEY_PATTERN = /^[a-z][a-z0-9_-]*\.[a-z][a-z0-9_.-]*$/;
export const PERMISSION_KEY_REQUIRED = 'Permission key is required';
export const PERMISSION_KEY_RULE = refusalText('PERMISSION_KEY_INVALID', 'Permission key must look like prefix.action');

// docs/product.md §5 add permission: key required (trimmed); description trimmed.
export const addPermissionSchema = z.object({
  key: z
    .string({ error: (issue) => (issue.input === undefined || issue.input === null ? PERMISSION_KEY_REQUIRED : PERMISSION_KEY_RULE) })
    .trim()
    .min(1, { error: PERMISSION_KEY_REQUIRED })
    .max(64, { error: 'Permission key is too long (at most 64 characters)' })
    .regex(PERMISSION_KEY_PATTERN, { error: PERMISSION_KEY_RULE }),
  description: z
    .union([z.string(), z.null()], { error: 'Description must be text' })
    .optional()
    .transform((v) => (v ?? '').trim())
    .pipe(z.string().max(500, { error: 'Description is too long (at most 500 characters)' })),
});
export type AddPermissionInput = z.output<typeof addPermissionSchema>;
