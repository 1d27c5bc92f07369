import ClipboardListIcon from "lucide-react/icons/clipboard-list";
import HistoryIcon from "lucide-react/icons/history";
import KeyRoundIcon from "lucide-react/icons/key-round";
import LayersIcon from "lucide-react/icons/layers";
import SettingsIcon from "lucide-react/icons/settings";
import SmartphoneIcon from "lucide-react/icons/smartphone";
import UsersIcon from "lucide-react/icons/users";

import { ADMIN_ACCESS, type AdminAreaPermission, hasPermission, MANAGEMENT_ACCESS, type UserWithPermissions } from "@/lib/permissions";

// spec §2 "Admin home and toolbar": the six tiles of /admin, which the sub-pages' toolbar repeats, and
// the audit log (issue 12). Each names the permission that opens it (issue 13: a treasurer holds
// management.access and sees only Management): the tiles, the toolbar and the admin layout's guard
// all read it here, so a page is never offered to someone it would refuse.
export type AdminSection = {
  to: string;
  title: string;
  description: string;
  icon: typeof UsersIcon;
  permission: AdminAreaPermission;
};

export const ADMIN_SECTIONS: readonly AdminSection[] = [
  { to: "/admin/users", title: "Users", description: "Accounts, their groups, status and passwords", icon: UsersIcon, permission: ADMIN_ACCESS },
  { to: "/admin/groups", title: "Groups", description: "Groups and the permissions they hold", icon: LayersIcon, permission: ADMIN_ACCESS },
  { to: "/admin/permissions", title: "Permissions", description: "The permission keys groups can hold", icon: KeyRoundIcon, permission: ADMIN_ACCESS },
  { to: "/admin/settings", title: "Settings", description: "Sign-in, site and invoice settings", icon: SettingsIcon, permission: ADMIN_ACCESS },
  { to: "/admin/versions", title: "Versions", description: "Mobile app (APK) versions and uploads", icon: SmartphoneIcon, permission: ADMIN_ACCESS },
  {
    to: "/admin/management",
    title: "Management",
    description: "Tablers, orders, invoices and payments of the campaign",
    icon: ClipboardListIcon,
    permission: MANAGEMENT_ACCESS,
  },
  { to: "/admin/audit", title: "Audit Log", description: "Who changed what, when and from where", icon: HistoryIcon, permission: ADMIN_ACCESS },
];

/** The sections this user may open, in the tiles' order. */
export function sectionsFor(user: UserWithPermissions | null | undefined): AdminSection[] {
  return ADMIN_SECTIONS.filter((section) => hasPermission(user, section.permission));
}

/**
 * The permission a path of the admin area needs: its section's; null for /admin itself (its tiles show
 * what the user may open); admin.access for any other path, so a path without a section (a typo, a page
 * to come) reveals nothing to a treasurer.
 */
export function permissionForAdminPath(pathname: string): AdminAreaPermission | null {
  const path = pathname.replace(/\/+$/, "") || "/";
  if (path === "/admin") return null;
  const section = ADMIN_SECTIONS.find((s) => path === s.to || path.startsWith(`${s.to}/`));
  return section?.permission ?? ADMIN_ACCESS;
}
