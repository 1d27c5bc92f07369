import * as z from 'zod';
import { recordId } from '../../core/record-id';

export const GROUP_NAME_REQUIRED = 'Group name is required';
/** More ids than any club has permissions; a bound so one request cannot ask for millions of rows. */
export const MAX_PERMISSION_IDS = 1000;

// docs/product.md §5 add group: name required after trimming; description optional.
export const addGroupSchema = z.object({
  name: z
    .string({ error: (issue) => (issue.input === undefined || issue.input === null ? GROUP_NAME_REQUIRED : 'Group name must be text') })
    .trim()
    .min(1, { error: GROUP_NAME_REQUIRED })
    .max(64, { error: 'Group name is too long (at most 64 characters)' }),
  description: z
    .union([z.string(), z.null()], { error: 'Description must be text' })
    .optional()
    .transform((v) => (v ?? '').trim())
    .pipe(z.string().max(500, { error: 'Description is too long (at most 500 characters)' })),
});
export type AddGroupInput = z.output<typeof addGroupSchema>;

const PERMISSION_IDS_RULE = 'permission_ids must be a list of permission ids';

/** docs/product.md §4 group permissions: the screen saves its differences as additions and removals (sets). */
export const groupPermissionsSchema = z.object({
  group_id: recordId('Invalid group_id'),
  permission_ids: z
    .array(recordId(PERMISSION_IDS_RULE), { error: PERMISSION_IDS_RULE })
    .max(MAX_PERMISSION_IDS, { error: `permission_ids has too many items (at most ${MAX_PERMISSION_IDS})` })
    .transform((ids) => [...new Set(ids)]),
});
export type GroupPermissionsInput = z.output<typeof groupPermissionsSchema>;
