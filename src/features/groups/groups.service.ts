import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { ClubDb } from '../../db/client';
import { ownerValue } from '../../db/club-db';
import { groupPermissions, groups, permissions, settings } from '../../db/schema';
import { AppError } from '../../core/errors';
import { PERMISSIONS } from '../auth/permission-keys';
import { requireAdmin, type HasUser } from '../auth/permissions';
import { PERMISSION_NOT_FOUND, toPermissionView, type PermissionView } from '../permissions/permissions.service';
import { chunked } from '../../core/record-id';
import type { SettingsCache } from '../../platform/settings-cache';
import { getIntegerSetting } from '../settings/settings.service';
import { adminRemainsAfter, adminRemainsAfterCheck, lastAdminRefused } from '../users/last-admin';
import { auditIfChanged, type AuditCtx } from '../audit/audit';
import type { AddGroupInput, GroupPermissionsInput } from './groups.schemas';

export interface GroupsCtx extends HasUser, Omit<AuditCtx, 'user'> {
  db: ClubDb;
  settingsCache: SettingsCache;
}

const groupTarget = (group: { id: number; name: string }) => `group:${group.id} (${group.name})`;

/** docs/product.md §3 Group, as docs/architecture.md §4 shows it. */
export interface GroupView {
  id: number;
  name: string;
  description: string;
  deletable: boolean;
  permissions: PermissionView[];
}

type GroupRow = typeof groups.$inferSelect;

export const GROUP_NOT_FOUND = 'Group not found';
const DUPLICATE_NAME = 'A group with this name already exists';
/** Ids per statement: D1 allows at most 100 bound values, and each statement binds the group id too. */
const IDS_PER_STATEMENT = 90;

/** Groups with their permissions (ordered by key), in two queries whatever their number. */
async function withPermissions(db: ClubDb, rows: GroupRow[]): Promise<GroupView[]> {
  if (rows.length === 0) return [];
  const grants = await db
    .select({ groupId: groupPermissions.groupId, permission: permissions })
    .from(groupPermissions)
    .innerJoin(permissions, eq(permissions.id, groupPermissions.permissionId))
    .where(rows.length === 1 ? eq(groupPermissions.groupId, rows[0]!.id) : undefined)
    .orderBy(asc(permissions.key));
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    description: row.description,
    deletable: row.deletable,
    permissions: grants.filter((g) => g.groupId === row.id).map((g) => toPermissionView(g.permission)),
  }));
}

async function findGroup(db: ClubDb, id: number): Promise<GroupRow> {
  const [row] = await db.select().from(groups).where(eq(groups.id, id)).limit(1);
  if (!row) throw new AppError('GROUP_NOT_FOUND', GROUP_NOT_FOUND);
  return row;
}

/** docs/architecture.md §4 GET /api/groups: every group with its permissions, ordered by id. */
export async function listGroups(ctx: GroupsCtx): Promise<GroupView[]> {
  requireAdmin(ctx);
  const rows = await ctx.db.select().from(groups).orderBy(asc(groups.id));
  return withPermissions(ctx.db, rows);
}

/** docs/architecture.md §4 GET /api/groups?id=. */
export async function getGroup(ctx: GroupsCtx, id: number): Promise<GroupView> {
  requireAdmin(ctx);
  const [view] = await withPermissions(ctx.db, [await findGroup(ctx.db, id)]);
  return view!;
}

const sameName = (name: string) => eq(sql`lower(${groups.name})`, name.toLowerCase());

/** docs/product.md §5 add group; names are unique case-insensitively. New groups are deletable. */
export async function addGroup(ctx: GroupsCtx, input: AddGroupInput): Promise<GroupView> {
  requireAdmin(ctx);
  const [existing] = await ctx.db.select({ id: groups.id }).from(groups).where(sameName(input.name)).limit(1);
  if (existing) throw new AppError('GROUP_NAME_TAKEN', DUPLICATE_NAME);
  // Without a conflict target, DO NOTHING also covers the case-insensitive unique index (a racing add).
  const [[row]] = await ctx.db.batch([
    ctx.db.insert(groups).values({ name: input.name, description: input.description, deletable: true }).onConflictDoNothing().returning(),
    auditIfChanged(ctx, { action: 'group.created', target: `group (${input.name})`, details: { description: input.description } }),
  ]);
  if (!row) throw new AppError('GROUP_NAME_TAKEN', DUPLICATE_NAME);
  return { id: row.id, name: row.name, description: row.description, deletable: row.deletable, permissions: [] };
}

async function defaultGroupId(ctx: GroupsCtx): Promise<number | null> {
  try {
    return await getIntegerSetting(ctx, 'default_user_group_id');
  } catch (error) {
    // No default group configured: then no group is the default.
    if (error instanceof AppError) return null;
    throw error;
  }
}

/**
 * docs/product.md §5: non-deletable groups cannot be deleted. Nor can the group new users join
 * (default_user_group_id), nor the last group giving an active admin admin.access.
 * Memberships and grants go with the group (foreign-key cascades).
 */
export async function deleteGroup(ctx: GroupsCtx, id: number): Promise<void> {
  requireAdmin(ctx);
  const group = await findGroup(ctx.db, id);
  if (!group.deletable) throw new AppError('GROUP_NOT_DELETABLE', 'This group cannot be deleted');
  const DEFAULT_GROUP = 'The default user group cannot be deleted';
  if ((await defaultGroupId(ctx)) === group.id) throw new AppError('DEFAULT_GROUP_NOT_DELETABLE', DEFAULT_GROUP);
  const change = { groupId: group.id };
  if (!(await adminRemainsAfterCheck(ctx.db, change))) throw lastAdminRefused();
  // The same rules in the statement itself, so a setting or membership changed meanwhile still counts.
  const isDefault = sql`EXISTS ${ctx.db
    .select({ one: sql`1` })
    .from(settings)
    .where(and(eq(settings.key, 'default_user_group_id'), eq(settings.value, String(group.id))))}`;
  const [deleted] = await ctx.db.batch([
    ctx.db
      .delete(groups)
      .where(and(eq(groups.id, group.id), eq(groups.deletable, true), sql`NOT ${isDefault}`, adminRemainsAfter(ctx.db, change)))
      .returning({ id: groups.id }),
    auditIfChanged(ctx, { action: 'group.deleted', target: groupTarget(group) }),
  ]);
  if (deleted.length > 0) return;
  const [still] = await ctx.db.select({ id: groups.id }).from(groups).where(eq(groups.id, group.id)).limit(1);
  if (!still) return;
  ctx.settingsCache.invalidate(ctx.db);
  if ((await defaultGroupId(ctx)) === group.id) throw new AppError('DEFAULT_GROUP_NOT_DELETABLE', DEFAULT_GROUP);
  throw lastAdminRefused();
}

/** Refuses the whole request when one of the ids names no permission: nothing is written then. */
async function requirePermissionsExist(db: ClubDb, ids: number[]): Promise<void> {
  let found = 0;
  for (const part of chunked(ids, IDS_PER_STATEMENT)) {
    const rows = await db.select({ id: permissions.id }).from(permissions).where(inArray(permissions.id, part));
    found += rows.length;
  }
  if (found !== ids.length) throw new AppError('PERMISSION_NOT_FOUND', PERMISSION_NOT_FOUND);
}

export const DEFAULT_GROUP_ADMIN_REFUSED = 'The default user group cannot hold admin.access: everyone who registers would be an administrator.';

/**
 * Grants permissions to a group as a set: ones it already holds are left as they are. admin.access
 * never goes to the group new users join (docs/decisions/008).
 */
export async function addGroupPermissions(ctx: GroupsCtx, input: GroupPermissionsInput): Promise<void> {
  requireAdmin(ctx);
  const group = await findGroup(ctx.db, input.group_id);
  if (input.permission_ids.length === 0) return;
  await requirePermissionsExist(ctx.db, input.permission_ids);
  if ((await defaultGroupId(ctx)) === input.group_id) {
    const [admin] = await ctx.db.select({ id: permissions.id }).from(permissions).where(eq(permissions.key, PERMISSIONS.adminAccess)).limit(1);
    if (admin && input.permission_ids.includes(admin.id)) throw new AppError('DEFAULT_GROUP_ADMIN', DEFAULT_GROUP_ADMIN_REFUSED);
  }
  // INSERT … SELECT skips a permission deleted meanwhile instead of failing on its foreign key.
  const statements = chunked(input.permission_ids, IDS_PER_STATEMENT).map((part) =>
    ctx.db
      .insert(groupPermissions)
      .select(
        ctx.db
          .select({ clubId: ownerValue(ctx.db), groupId: sql<number>`${input.group_id}`.as('group_id'), permissionId: permissions.id })
          .from(permissions)
          .where(inArray(permissions.id, part)),
      )
      .onConflictDoNothing(),
  );
  const granted = await permissionKeys(ctx.db, input.permission_ids);
  // One entry per chunk that granted something (usually one: a chunk holds 90 ids).
  const audited = statements.flatMap((statement) => [
    statement,
    auditIfChanged(ctx, { action: 'group.permissions_changed', target: groupTarget(group), details: { added: granted } }),
  ]);
  await ctx.db.batch(audited as [(typeof audited)[number], ...typeof audited]);
}

/** The keys of permissions by id, for the audit log. */
async function permissionKeys(db: ClubDb, ids: number[]): Promise<string[]> {
  const keys: string[] = [];
  for (const part of chunked(ids, IDS_PER_STATEMENT)) {
    const rows = await db.select({ key: permissions.key }).from(permissions).where(inArray(permissions.id, part));
    keys.push(...rows.map((r) => r.key));
  }
  return keys.sort();
}

/**
 * Takes permissions from a group as a set: ones it does not hold are ignored. Taking admin.access
 * away must leave an active admin; when it would not, nothing at all is removed.
 */
export async function removeGroupPermissions(ctx: GroupsCtx, input: GroupPermissionsInput): Promise<void> {
  requireAdmin(ctx);
  const group = await findGroup(ctx.db, input.group_id);
  if (input.permission_ids.length === 0) return;
  await requirePermissionsExist(ctx.db, input.permission_ids);
  const [adminGrant] = await ctx.db
    .select({ permissionId: groupPermissions.permissionId })
    .from(groupPermissions)
    .innerJoin(permissions, eq(permissions.id, groupPermissions.permissionId))
    .where(and(eq(groupPermissions.groupId, input.group_id), eq(permissions.key, PERMISSIONS.adminAccess)))
    .limit(1);
  const takesAdmin = !!adminGrant && input.permission_ids.includes(adminGrant.permissionId);
  const change = { groupId: input.group_id };
  if (takesAdmin && !(await adminRemainsAfterCheck(ctx.db, change))) throw lastAdminRefused();
  // Every statement carries the same guard, so the batch removes all or nothing.
  const statements = chunked(input.permission_ids, IDS_PER_STATEMENT).map((part) =>
    ctx.db
      .delete(groupPermissions)
      .where(
        and(
          eq(groupPermissions.groupId, input.group_id),
          inArray(groupPermissions.permissionId, part),
          takesAdmin ? adminRemainsAfter(ctx.db, change) : undefined,
        ),
      ),
  );
  const taken = await permissionKeys(ctx.db, input.permission_ids);
  const audited = statements.flatMap((statement) => [
    statement,
    auditIfChanged(ctx, { action: 'group.permissions_changed', target: groupTarget(group), details: { removed: taken } }),
  ]);
  await ctx.db.batch(audited as [(typeof audited)[number], ...typeof audited]);
  if (takesAdmin) {
    const [still] = await ctx.db
      .select({ one: sql`1` })
      .from(groupPermissions)
      .where(and(eq(groupPermissions.groupId, input.group_id), eq(groupPermissions.permissionId, adminGrant.permissionId)))
      .limit(1);
    if (still) throw lastAdminRefused();
  }
}
