import { asc, eq } from 'drizzle-orm';
import type { ClubDb } from '../../db/client';
import { permissions } from '../../db/schema';
import { AppError } from '../../core/errors';
import { requireAdmin, type HasUser } from '../auth/permissions';
import { auditIfChanged, type AuditCtx } from '../audit/audit';
import type { AddPermissionInput } from './permissions.schemas';

export interface PermissionsCtx extends HasUser, Omit<AuditCtx, 'user'> {
  db: ClubDb;
}

/** docs/product.md §3 Permission, as docs/architecture.md §4 shows it. */
export interface PermissionView {
  id: number;
  key: string;
  description: string;
  deletable: boolean;
}

type PermissionRow = typeof permissions.$inferSelect;

export function toPermissionView(row: PermissionRow): PermissionView {
  return { id: row.id, key: row.key, description: row.description, deletable: row.deletable };
}

export const PERMISSION_NOT_FOUND = 'Permission not found';
const DUPLICATE_KEY = 'A permission with this key already exists';

/** docs/architecture.md §4 GET /api/permissions: every permission, ordered by key. */
export async function listPermissions(ctx: PermissionsCtx): Promise<PermissionView[]> {
  requireAdmin(ctx);
  const rows = await ctx.db.select().from(permissions).orderBy(asc(permissions.key));
  return rows.map(toPermissionView);
}

/** docs/product.md §5 add permission; new permissions are deletable. */
export async function addPermission(ctx: PermissionsCtx, input: AddPermissionInput): Promise<PermissionView> {
  requireAdmin(ctx);
  const [existing] = await ctx.db.select({ id: permissions.id }).from(permissions).where(eq(permissions.key, input.key)).limit(1);
  if (existing) throw new AppError('PERMISSION_KEY_TAKEN', DUPLICATE_KEY);
  // Two adds racing for one key: the unique index decides, and the loser gets the same 409.
  const [[row]] = await ctx.db.batch([
    ctx.db.insert(permissions).values({ key: input.key, description: input.description, deletable: true }).onConflictDoNothing().returning(),
    auditIfChanged(ctx, { action: 'permission.created', target: `permission (${input.key})`, details: { description: input.description } }),
  ]);
  if (!row) throw new AppError('PERMISSION_KEY_TAKEN', DUPLICATE_KEY);
  return toPermissionView(row);
}

/** docs/product.md §5: non-deletable permissions cannot be deleted. Grants to groups go with it (cascade). */
export async function deletePermission(ctx: PermissionsCtx, id: number): Promise<void> {
  requireAdmin(ctx);
  const [row] = await ctx.db.select().from(permissions).where(eq(permissions.id, id)).limit(1);
  if (!row) throw new AppError('PERMISSION_NOT_FOUND', PERMISSION_NOT_FOUND);
  if (!row.deletable) throw new AppError('PERMISSION_NOT_DELETABLE', 'This permission cannot be deleted');
  await ctx.db.batch([
    ctx.db.delete(permissions).where(eq(permissions.id, id)),
    auditIfChanged(ctx, { action: 'permission.deleted', target: `permission:${row.id} (${row.key})` }),
  ]);
}
