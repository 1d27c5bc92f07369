import type { Db } from '../../db/client';
import { getBooleanSetting } from '../settings/settings.service';
import type { SettingsCache } from '../settings/settings-cache';
import { hasPermission, PERMISSIONS } from './permissions';
import type { UserProfile } from './user-profile';

/**
 * DESIGN §5 `require_2fa_for_admins`: whether this signed-in user must enable two-factor before their
 * admin rights count. Read once per request from the settings cache (no query for a cached setting),
 * and only for admins without two-factor, so nobody else pays for it.
 */
export async function needsTwoFactorSetup(ctx: { db: Db; settingsCache: SettingsCache }, user: UserProfile | null): Promise<boolean> {
  if (!user || user.two_factor_enabled || !hasPermission(user, PERMISSIONS.adminAccess)) return false;
  return getBooleanSetting(ctx, 'require_2fa_for_admins');
}
