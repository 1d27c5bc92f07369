import { hasPermission, PERMISSIONS, type UserWithPermissions } from "#src/features/auth/permission-keys";
import { isSettingOn, type SettingsLookup } from "@/lib/settings";

// docs/product.md §2 Guards: with maintenance_mode on, everyone without admin.access goes to /maintenance,
// except on /maintenance and /login.
const MAINTENANCE_EXEMPT_PATHS = new Set(["/maintenance", "/login"]);

/** The setting that turns maintenance mode on (docs/product.md §3 known keys). */
export const MAINTENANCE_MODE = "maintenance_mode";

export function isMaintenanceOn(settings: SettingsLookup): boolean {
  return isSettingOn(settings, MAINTENANCE_MODE);
}

export function shouldRedirectToMaintenance(
  settings: SettingsLookup,
  user: UserWithPermissions | null | undefined,
  pathname: string,
): boolean {
  if (!isMaintenanceOn(settings)) return false;
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  if (MAINTENANCE_EXEMPT_PATHS.has(path)) return false;
  return !hasPermission(user, PERMISSIONS.adminAccess);
}
