// docs/product.md §6: a user has a permission when its list holds that key; admin.access passes every check.

export const ADMIN_ACCESS = "admin.access";
/** docs/decisions/026, docs/architecture.md §5: the Management dashboard and its calls, nothing else of the admin area (a treasurer). */
export const MANAGEMENT_ACCESS = "management.access";

/**
 * Every permission that opens at least one page of the admin area. The admin sections
 * (routes/_auth/admin/-components/admin-sections.ts) each name one of these; the header's Admin link
 * and the admin layout's guard ask only whether the user holds any, so they need not load the sections.
 */
export const ADMIN_AREA_PERMISSIONS = [ADMIN_ACCESS, MANAGEMENT_ACCESS] as const;
export type AdminAreaPermission = (typeof ADMIN_AREA_PERMISSIONS)[number];

/** The part of a session user a permission check needs. */
export type UserWithPermissions = {
  permissions?: ReadonlyArray<{ key: string }> | null;
};

export function hasPermission(user: UserWithPermissions | null | undefined, key: string): boolean {
  const permissions = user?.permissions;
  if (!permissions) return false;
  return permissions.some((permission) => permission.key === key || permission.key === ADMIN_ACCESS);
}

/** Whether the user may open some page of the admin area (the header's Admin link, /admin itself). */
export function mayOpenAdminArea(user: UserWithPermissions | null | undefined): boolean {
  return ADMIN_AREA_PERMISSIONS.some((key) => hasPermission(user, key));
}
