import { AppError, notLoggedIn, forbidden } from '../../core/errors';
import { hasPermission, type PermissionKey, PERMISSIONS } from './permission-keys';
import type { UserProfile } from './user-profile';

export interface HasUser {
  user: UserProfile | null;
  /**
   * docs/architecture.md §5 `require_2fa_for_admins`: true for a holder of admin.access without two-factor while the
   * setting is on. Until they enable it, every permission check answers 403 with
   * ADMIN_TWO_FACTOR_REQUIRED and they count as a plain user (admin-two-factor.ts sets it per request).
   */
  twoFactorSetupRequired?: boolean;
}

export const ADMIN_TWO_FACTOR_REQUIRED = 'Two-factor authentication is required for admins';

export function requireUser(ctx: HasUser): UserProfile {
  if (!ctx.user) throw notLoggedIn();
  return ctx.user;
}

export function requirePermission(ctx: HasUser, key: PermissionKey): UserProfile {
  const user = requireUser(ctx);
  if (!hasPermission(user, key)) throw forbidden();
  if (ctx.twoFactorSetupRequired) throw new AppError('ADMIN_TWO_FACTOR_REQUIRED', ADMIN_TWO_FACTOR_REQUIRED);
  return user;
}

/** Whether this request may use admin rights (admin.access, and two-factor when the club requires it). */
export function actsAsAdmin(ctx: HasUser): boolean {
  return hasPermission(ctx.user, PERMISSIONS.adminAccess) && !ctx.twoFactorSetupRequired;
}

export function requireAdmin(ctx: HasUser): UserProfile {
  return requirePermission(ctx, PERMISSIONS.adminAccess);
}

/** The campaign's back-office: management.access (a treasurer) or admin.access. */
export function requireManagement(ctx: HasUser): UserProfile {
  return requirePermission(ctx, PERMISSIONS.managementAccess);
}

/** Whether this request may use the back-office's rights on orders (every field, no public limits). */
export function actsAsManager(ctx: HasUser): boolean {
  return hasPermission(ctx.user, PERMISSIONS.managementAccess) && !ctx.twoFactorSetupRequired;
}
