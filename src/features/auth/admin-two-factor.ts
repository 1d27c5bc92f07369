import { hasPermission, PERMISSIONS } from './permission-keys';
import type { UserProfile } from './user-profile';

/**
 * docs/architecture.md §5 `require_2fa_for_admins`: whether this signed-in user must enable two-factor before their
 * admin rights count. The setting is read (from the settings cache: no query for a cached setting) only
 * for admins without two-factor, so nobody else pays for it.
 */
export async function needsTwoFactorSetup(user: UserProfile | null, requiredForAdmins: () => Promise<boolean>): Promise<boolean> {
  if (!user || user.two_factor_enabled || !hasPermission(user, PERMISSIONS.adminAccess)) return false;
  return requiredForAdmins();
}
