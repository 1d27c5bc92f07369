import { isUniqueViolation } from '../../db/unique-violation';
import { and, eq, ne, sql } from 'drizzle-orm';
import type { RequestCtx } from '../../context';
import { groups, userGroups, users } from '../../db/schema';
import { AppError } from '../../core/errors';
import { isValidEmail } from '../../core/public-form-rules';
import { PERMISSIONS } from '../auth/permission-keys';
import { requireAdmin, requirePermission } from '../auth/permissions';
import { invalidateUserSessions } from '../auth/session';
import { loadAllUserProfiles, type UserProfile } from '../auth/user-profile';
import { adminRemainsAfter, adminRemainsAfterCheck, lastAdminRefused } from './last-admin';
import { auditIfChanged } from '../audit/audit';
import { voidResetLinks } from '../account/reset-links';
import { minimumPasswordLength } from '../account/account.service';
import type { UserGroupInput, UserStatus } from './users.schemas';

export type UsersCtx = Pick<RequestCtx, 'db' | 'clock' | 'passwords' | 'settingsCache' | 'session' | 'user' | 'ip'>;

/** What an admin may change about a user (docs/product.md §7 edituser); anything left out stays as it is. */
export interface UserChanges {
  password?: string | undefined;
  status?: UserStatus | undefined;
  /** null clears the address. */
  email?: string | null | undefined;
}

export const USER_NOT_FOUND = 'User not found';
export const GROUP_NOT_FOUND = 'Group not found';

async function findUser(ctx: UsersCtx, id: number) {
  const [row] = await ctx.db.select().from(users).where(eq(users.id, id)).limit(1);
  if (!row) throw new AppError('USER_NOT_FOUND', USER_NOT_FOUND);
  return row;
}

async function requireGroupExists(ctx: UsersCtx, id: number): Promise<{ id: number; name: string }> {
  const [row] = await ctx.db.select({ id: groups.id, name: groups.name }).from(groups).where(eq(groups.id, id)).limit(1);
  if (!row) throw new AppError('GROUP_NOT_FOUND', GROUP_NOT_FOUND);
  return row;
}

const userTarget = (user: { id: number; username: string }) => `user:${user.id} (${user.username})`;

/** docs/architecture.md §4 GET /api/users: every user as /api/account/me shows one, ordered by id. */
export async function listUsers(ctx: UsersCtx): Promise<UserProfile[]> {
  requireAdmin(ctx);
  return loadAllUserProfiles(ctx.db);
}

/** docs/product.md §5: the group selector is editable only for deletable users; docs/product.md §6 users.assign. */
async function loadMembershipChange(ctx: UsersCtx, input: UserGroupInput) {
  requireAdmin(ctx);
  requirePermission(ctx, PERMISSIONS.usersAssign);
  const user = await findUser(ctx, input.user_id);
  const group = await requireGroupExists(ctx, input.group_id);
  if (!user.deletable) throw new AppError('USER_GROUPS_LOCKED', "This user's groups cannot be changed");
  return { user, group };
}

const touch = (ctx: UsersCtx, userId: number) => ctx.db.update(users).set({ updatedAt: ctx.clock.now().toISOString() }).where(eq(users.id, userId));

/** Adds a user to a group; a user already in it stays as they are. */
export async function assignGroup(ctx: UsersCtx, input: UserGroupInput): Promise<void> {
  const { user, group } = await loadMembershipChange(ctx, input);
  const [added] = await ctx.db.batch([
    ctx.db.insert(userGroups).values({ userId: user.id, groupId: input.group_id }).onConflictDoNothing().returning(),
    auditIfChanged(ctx, { action: 'user.group_added', target: userTarget(user), details: { group: group.name } }),
  ]);
  if (added.length > 0) await touch(ctx, user.id);
}

/** Takes a user out of a group; never the last path to admin.access of the last active admin. */
export async function removeGroup(ctx: UsersCtx, input: UserGroupInput): Promise<void> {
  const { user, group } = await loadMembershipChange(ctx, input);
  const membership = and(eq(userGroups.userId, user.id), eq(userGroups.groupId, input.group_id));
  const [current] = await ctx.db.select().from(userGroups).where(membership).limit(1);
  if (!current) return;
  const change = { membership: { userId: user.id, groupId: input.group_id } };
  if (!(await adminRemainsAfterCheck(ctx.db, change))) throw lastAdminRefused();
  const [removed] = await ctx.db.batch([
    ctx.db
      .delete(userGroups)
      .where(and(membership, adminRemainsAfter(ctx.db, change)))
      .returning(),
    auditIfChanged(ctx, { action: 'user.group_removed', target: userTarget(user), details: { group: group.name } }),
  ]);
  if (removed.length === 0) {
    // Nothing removed: either someone else just removed it (fine) or the guard refused.
    const [still] = await ctx.db.select().from(userGroups).where(membership).limit(1);
    if (still) throw lastAdminRefused();
    return;
  }
  await touch(ctx, user.id);
}

async function emailInUse(ctx: UsersCtx, email: string, exceptUserId: number): Promise<boolean> {
  const [row] = await ctx.db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(sql`lower(${users.email})`, email.toLowerCase()), ne(users.id, exceptUserId)))
    .limit(1);
  return !!row;
}

/**
 * docs/product.md §6 "changing another user's password is available to whoever sees the user table", §4 the
 * status chip, and the user's e-mail. A new password or deactivation ends the user's sessions (an
 * admin changing their own password keeps the session they are using).
 */
export async function editUser(ctx: UsersCtx, id: number, input: UserChanges): Promise<void> {
  const admin = requireAdmin(ctx);
  if (input.password === undefined && input.status === undefined && input.email === undefined) throw new AppError('NOTHING_TO_CHANGE', 'Nothing to change');
  const target = await findUser(ctx, id);
  const self = target.id === admin.id;
  if (input.status === 'inactive' && self) throw new AppError('CANNOT_DEACTIVATE_SELF', 'You cannot deactivate yourself');
  if (input.password !== undefined) {
    const min = await minimumPasswordLength(ctx);
    if (input.password.length < min) throw new AppError('PASSWORD_TOO_SHORT', `Password must be at least ${min} characters.`, { min_length: min });
  }
  if (input.email !== undefined && input.email !== null) {
    if (!isValidEmail(input.email)) throw new AppError('EMAIL_INVALID', 'Invalid email address');
    if (await emailInUse(ctx, input.email, target.id)) throw new AppError('EMAIL_TAKEN', 'Email is already in use');
  }
  const deactivating = input.status === 'inactive' && target.status === 'active';
  const change = { userId: target.id };
  if (deactivating && !(await adminRemainsAfterCheck(ctx.db, change))) throw lastAdminRefused();

  const set: Partial<typeof users.$inferInsert> = { updatedAt: ctx.clock.now().toISOString() };
  if (input.password !== undefined) set.passwordHash = await ctx.passwords.hash(input.password);
  if (input.status !== undefined) set.status = input.status;
  if (input.email !== undefined) set.email = input.email;
  // Old → new for status and e-mail; a password only as the fact that it changed.
  const details: Record<string, unknown> = {};
  if (input.status !== undefined && input.status !== target.status) details.status = [target.status, input.status];
  if (input.email !== undefined && input.email !== target.email) details.email = [target.email, input.email];
  if (input.password !== undefined) details.password = 'changed';
  let updated: { id: number }[];
  try {
    [updated] = await ctx.db.batch([
      ctx.db
        .update(users)
        .set(set)
        .where(deactivating ? and(eq(users.id, target.id), adminRemainsAfter(ctx.db, change)) : eq(users.id, target.id))
        .returning({ id: users.id }),
      auditIfChanged(ctx, { action: 'user.updated', target: userTarget(target), details }),
      // docs/decisions/055: a new password or address voids the reset links sent before (after the audit
      // entry, which looks at the update's changes()).
      ...(input.password !== undefined || details.email !== undefined ? [voidResetLinks(ctx, target.id)] : []),
    ]);
  } catch (error) {
    // Another user took the address between the check and the write: the unique index decides.
    if (isUniqueViolation(error)) throw new AppError('EMAIL_TAKEN', 'Email is already in use');
    throw error;
  }
  if (updated.length === 0) {
    if (deactivating) throw lastAdminRefused();
    throw new AppError('USER_NOT_FOUND', USER_NOT_FOUND);
  }
  if (input.status === 'inactive') await invalidateUserSessions(ctx.db, target.id);
  else if (input.password !== undefined) await invalidateUserSessions(ctx.db, target.id, self ? ctx.session?.id : undefined);
}

/**
 * docs/product.md §5 deletion: never yourself, never a non-deletable user; docs/product.md §6 users.delete. Sessions, group
 * memberships and two-factor data go with the user (foreign-key cascades).
 */
export async function deleteUser(ctx: UsersCtx, id: number): Promise<void> {
  requireAdmin(ctx);
  const admin = requirePermission(ctx, PERMISSIONS.usersDelete);
  if (id === admin.id) throw new AppError('CANNOT_DELETE_SELF', 'You cannot delete yourself');
  const target = await findUser(ctx, id);
  if (!target.deletable) throw new AppError('USER_NOT_DELETABLE', 'This user cannot be deleted');
  const change = { userId: target.id };
  if (!(await adminRemainsAfterCheck(ctx.db, change))) throw lastAdminRefused();
  const [deleted] = await ctx.db.batch([
    ctx.db
      .delete(users)
      .where(and(eq(users.id, target.id), eq(users.deletable, true), adminRemainsAfter(ctx.db, change)))
      .returning({ id: users.id }),
    auditIfChanged(ctx, { action: 'user.deleted', target: userTarget(target), details: { email: target.email } }),
  ]);
  if (deleted.length === 0) {
    const [still] = await ctx.db.select({ id: users.id }).from(users).where(eq(users.id, target.id)).limit(1);
    if (still) throw lastAdminRefused();
  }
}
