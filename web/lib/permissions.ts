import { hasPermission, PERMISSIONS, type UserWithPermissions } from "#src/features/auth/permission-keys";

/**
 * Every permission that opens at least one page of the admin area. The admin sections
 * (routes/_auth/admin/-components/admin-sections.ts) each name one of these; the header's Admin link
 * and the admin layout's guard ask only whether the user holds any, so they need not load the sections.
 * docs/decisions/026: management.access opens the Management dashboard and nothing else (a treasurer).
 */
export const ADMIN_AREA_PERMISSIONS = [PERMISSIONS.adminAccess, PERMISSIONS.managementAccess] as const;
export type AdminAreaPermission = (typeof ADMIN_AREA_PERMISSIONS)[number];

/** Whether the user may open some page of the admin area (the header's Admin link, /admin itself). */
export function mayOpenAdminArea(user: UserWithPermissions | null | undefined): boolean {
  return ADMIN_AREA_PERMISSIONS.some((key) => hasPermission(user, key));
}
