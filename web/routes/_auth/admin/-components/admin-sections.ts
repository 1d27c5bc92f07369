import ClipboardListIcon from "lucide-react/icons/clipboard-list";
import HistoryIcon from "lucide-react/icons/history";
import KeyRoundIcon from "lucide-react/icons/key-round";
import LayersIcon from "lucide-react/icons/layers";
import SettingsIcon from "lucide-react/icons/settings";
import SmartphoneIcon from "lucide-react/icons/smartphone";
import UsersIcon from "lucide-react/icons/users";

// spec §2 "Admin home and toolbar": the six tiles of /admin, which the sub-pages' toolbar repeats, and
// the audit log (issue 12).
export type AdminSection = {
  to: string;
  title: string;
  description: string;
  icon: typeof UsersIcon;
};

export const ADMIN_SECTIONS: readonly AdminSection[] = [
  { to: "/admin/users", title: "Users", description: "Accounts, their groups, status and passwords", icon: UsersIcon },
  { to: "/admin/groups", title: "Groups", description: "Groups and the permissions they hold", icon: LayersIcon },
  { to: "/admin/permissions", title: "Permissions", description: "The permission keys groups can hold", icon: KeyRoundIcon },
  { to: "/admin/settings", title: "Settings", description: "Sign-in, site and invoice settings", icon: SettingsIcon },
  { to: "/admin/versions", title: "Versions", description: "Mobile app (APK) versions and uploads", icon: SmartphoneIcon },
  { to: "/admin/management", title: "Management", description: "Tablers and orders of the campaign", icon: ClipboardListIcon },
  { to: "/admin/audit", title: "Audit Log", description: "Who changed what, when and from where", icon: HistoryIcon },
];
