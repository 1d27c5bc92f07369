import { refusalText } from '../../core/input-issues';
import * as z from 'zod';
import { MAX_PASSWORD_LENGTH } from '../../core/credential-rules';
import { USERNAME_RULE_MESSAGE } from '../account/account.schemas';
import { recordId } from '../../core/record-id';

export const USER_STATUSES = ['active', 'inactive'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

/** POST /api/users/assigngroup and /removegroup (docs/architecture.md §4). */
export const userGroupSchema = z.object({
  user_id: recordId('Invalid user_id'),
  group_id: recordId('Invalid group_id'),
});
export type UserGroupInput = z.output<typeof userGroupSchema>;

/**
 * POST /api/users/edituser?id= body: any of password, status, e-mail (docs/product.md §7 "body such as password").
 * A null password or status means "leave it"; an empty or null e-mail clears it. The password length
 * rule needs a setting, so the service checks it.
 */
export const editUserSchema = z.object({
  password: z
    .union([z.string(), z.null()], { error: 'Password must be text' })
    .optional()
    .transform((v) => v ?? undefined)
    .pipe(
      z
        .string()
        .max(MAX_PASSWORD_LENGTH, { error: `Password must be at most ${MAX_PASSWORD_LENGTH} characters.` })
        .optional(),
    ),
  status: z
    .union([z.enum(USER_STATUSES), z.null()], { error: 'Status must be active or inactive' })
    .optional()
    .transform((v) => v ?? undefined),
  email: z
    .union([z.string(), z.null()], { error: refusalText('EMAIL_INVALID', 'Invalid email address') })
    .optional()
    .transform((v) => (v === undefined ? undefined : v === null || v.trim() === '' ? null : v.trim())),
});
export type EditUserInput = z.output<typeof editUserSchema>;

/** users.edit over tRPC: the id of `?id=` beside the same body. */
export const editUserInputSchema = z.object({ id: recordId('Invalid id'), ...editUserSchema.shape });

/**
 * POST /api/users/invite body (docs/architecture.md §6): the newcomer's username and e-mail (the link goes
 * there, so it is required), and the groups to put them in (none: the default group). The username and
 * address rules are the service's, as for registration.
 */
export const inviteUserSchema = z.object({
  username: z.string({ error: 'Username is required' }).trim().min(1, { error: 'Username is required' }).max(64, { error: USERNAME_RULE_MESSAGE }),
  email: z
    .string({ error: refusalText('EMAIL_EMPTY', 'Email cannot be empty') })
    .trim()
    .min(1, { error: refusalText('EMAIL_EMPTY', 'Email cannot be empty') })
    .max(254, { error: refusalText('EMAIL_INVALID', 'Invalid email address') }),
  group_ids: z
    .array(recordId('Invalid group_id'), { error: 'Invalid group_id' })
    .max(100, { error: 'Invalid group_id' })
    .nullish()
    .transform((v) => v ?? undefined),
});
export type InviteUserInput = z.output<typeof inviteUserSchema>;
