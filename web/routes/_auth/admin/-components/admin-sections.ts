import BuildingIcon from "lucide-react/icons/building-2";
import ClipboardListIcon from "lucide-react/icons/clipboard-list";
import HistoryIcon from "lucide-react/icons/history";
import KeyRoundIcon from "lucide-react/icons/key-round";
import LayersIcon from "lucide-react/icons/layers";
import SettingsIcon from "lucide-react/icons/settings";
import SmartphoneIcon from "lucide-react/icons/smartphone";
import UsersIcon from "lucide-react/icons/users";

import type { Messages } from "@/i18n/catalogue";
import type { AdminAreaPermission } from "@/lib/permissions";
import { hasPermission, PERMISSIONS, PLATFORM_ACCESS, type UserWithPermissions } from "#src/features/auth/permission-keys";

// docs/product.md §2 "Admin home and toolbar": the six tiles of /admin, which the sub-pages' toolbar repeats, and
// the audit log (docs/decisions/009). Each names the permission that opens it (docs/decisions/026: a treasurer holds
// management.access and sees only Management): the tiles, the toolbar and the admin layout's guard
// all read it here, so a page is never offered to someone it would refuse.
// docs/decisions/041: a section's title and description are in the catalogue under its key (t.shell.sections),
// which the tiles and the toolbar read in the user's language; this list stays plain data for the guard.
export type AdminSectionKey = keyof Messages["shell"]["sections"];

export type AdminSection = {
  to: string;
  key: AdminSectionKey;
  icon: typeof UsersIcon;
  permission: AdminAreaPermission;
  /** docs/decisions/071: the platform's own section also needs platform.access itself, which admin.access does not pass. */
  platform?: true;
};

export const ADMIN_SECTIONS: readonly AdminSection[] = [
  { to: "/admin/users", key: "users", icon: UsersIcon, permission: PERMISSIONS.adminAccess },
  { to: "/admin/groups", key: "groups", icon: LayersIcon, permission: PERMISSIONS.adminAccess },
  { to: "/admin/permissions", key: "permissions", icon: KeyRoundIcon, permission: PERMISSIONS.adminAccess },
  { to: "/admin/settings", key: "settings", icon: SettingsIcon, permission: PERMISSIONS.adminAccess },
  { to: "/admin/versions", key: "versions", icon: SmartphoneIcon, permission: PERMISSIONS.adminAccess },
  { to: "/admin/management", key: "management", icon: ClipboardListIcon, permission: PERMISSIONS.managementAccess },
  { to: "/admin/audit", key: "audit", icon: HistoryIcon, permission: PERMISSIONS.adminAccess },
  { to: "/admin/clubs", key: "clubs", icon: BuildingIcon, permission: PERMISSIONS.adminAccess, platform: true },
];

/** Whether the user holds platform.access itself (the check of hasPermission lets admin.access pass for any key). */
export function holdsPlatformAccess(user: UserWithPermissions | null | undefined): boolean {
  return user?.permissions?.some((permission) => permission.key === PLATFORM_ACCESS) ?? false;
}

/** Whether the user may open `section`: its permission, and platform.access itself for the platform's. */
export function mayOpenSection(user: UserWithPermissions | null | undefined, section: AdminSection): boolean {
  return hasPermission(user, section.permission) && (section.platform !== true || holdsPlatformAccess(user));
}

/** The sections this user may open, in the tiles' order. */
export function sectionsFor(user: UserWithPermissions | null | undefined): AdminSection[] {
  return ADMIN_SECTIONS.filter((section) => mayOpenSection(user, section));
}

/**
 * The permission a path of the admin area needs: its section's; null for /admin itself (its tiles show
 * what the user may open); admin.access for any other path, so a path without a section (a typo, a page
 * to come) reveals nothing to a treasurer.
 */
export function permissionForAdminPath(pathname: string): AdminAreaPermission | null {
  const path = pathname.replace(/\/+$/, "") || "/";
  if (path === "/admin") return null;
  return sectionForAdminPath(path)?.permission ?? PERMISSIONS.adminAccess;
}

/** The section a path of the admin area belongs to, if any. */
export function sectionForAdminPath(pathname: string): AdminSection | undefined {
  const path = pathname.replace(/\/+$/, "") || "/";
  return ADMIN_SECTIONS.find((s) => path === s.to || path.startsWith(`${s.to}/`));
}
