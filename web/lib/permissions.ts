// spec §6: a user has a permission when its list holds that key; admin.access passes every check.

export const ADMIN_ACCESS = "admin.access";

/** The part of a session user a permission check needs. */
export type UserWithPermissions = {
  permissions?: ReadonlyArray<{ key: string }> | null;
};

export function hasPermission(user: UserWithPermissions | null | undefined, key: string): boolean {
  const permissions = user?.permissions;
  if (!permissions) return false;
  return permissions.some((permission) => permission.key === key || permission.key === ADMIN_ACCESS);
}
