// The built-in permission keys and the one rule that reads them, for the server's guards and the SPA's alike:
// plain values, no database, so the browser bundle can import this file (docs/product.md §6).

/** The permission keys the code checks; seeded in every club, non-deletable (docs/product.md §6). */
export const PERMISSIONS = {
  adminAccess: 'admin.access',
  premiumAiUsage: 'premium.aiusage',
  usersAssign: 'users.assign',
  usersDelete: 'users.delete',
  settingsDelete: 'settings.delete',
  /** docs/decisions/026: the Management dashboard and its calls (tablers, orders, invoices, payments, mail, CSV), nothing else. */
  managementAccess: 'management.access',
} as const;

export type PermissionKey = (typeof PERMISSIONS)[keyof typeof PERMISSIONS];

/**
 * docs/decisions/071: the platform's screen and calls (clubs). Seeded in the first club only, held by its
 * Administrators; admin.access, which passes every other check, does not pass this one.
 */
export const PLATFORM_ACCESS = 'platform.access';

/** Every built-in key, in the order above. */
export const PERMISSION_KEYS: readonly PermissionKey[] = Object.values(PERMISSIONS);

/** The part of a user a permission check needs: the session's user on the server, the signed-in user in the SPA. */
export type UserWithPermissions = {
  permissions?: ReadonlyArray<{ key: string }> | null;
};

/**
 * docs/product.md §6: a user has a permission when the list holds that key; holders of admin.access pass every
 * check; no user or no list means no permissions.
 */
export function hasPermission(user: UserWithPermissions | null | undefined, key: PermissionKey): boolean {
  const permissions = user?.permissions;
  if (!permissions) return false;
  return permissions.some((permission) => permission.key === key || permission.key === PERMISSIONS.adminAccess);
}
