import { forbidden, notLoggedIn } from '../../http/errors';
import type { UserProfile } from './user-profile';

/** The permission keys of specification §6. */
export const PERMISSIONS = {
  adminAccess: 'admin.access',
  premiumAiUsage: 'premium.aiusage',
  usersAssign: 'users.assign',
  usersDelete: 'users.delete',
  settingsDelete: 'settings.delete',
} as const;

/**
 * spec §6: a user has a permission when the list holds that key; holders of admin.access pass every
 * check; no user or no list means no permissions.
 */
export function hasPermission(user: Pick<UserProfile, 'permissions'> | null | undefined, key: string): boolean {
  if (!user?.permissions) return false;
  return user.permissions.some((p) => p.key === key || p.key === PERMISSIONS.adminAccess);
}

export interface HasUser {
  user: UserProfile | null;
}

export function requireUser(ctx: HasUser): UserProfile {
  if (!ctx.user) throw notLoggedIn();
  return ctx.user;
}

export function requirePermission(ctx: HasUser, key: string): UserProfile {
  const user = requireUser(ctx);
  if (!hasPermission(user, key)) throw forbidden();
  return user;
}

export function requireAdmin(ctx: HasUser): UserProfile {
  return requirePermission(ctx, PERMISSIONS.adminAccess);
}
