import GlobeIcon from "lucide-react/icons/globe";
import ShieldIcon from "lucide-react/icons/shield";
import UserIcon from "lucide-react/icons/user";

import { Badge } from "@/components/ui/badge";
import { cn } from "@/lib/utils";
import type { SettingVisibility } from "./setting-utils";

// DESIGN §3 visibility: public to everyone, private to signed-in users, admin to admin.access holders.
const VISIBILITY = {
  public: { icon: GlobeIcon, label: "Public", hint: "Visible to everyone", className: "border-primary/30 bg-accent text-accent-foreground" },
  private: { icon: UserIcon, label: "Private", hint: "Visible to signed-in users", className: "bg-secondary text-secondary-foreground" },
  admin: { icon: ShieldIcon, label: "Admin", hint: "Visible to admins only", className: "border-foreground/20 bg-background text-foreground" },
} as const satisfies Record<SettingVisibility, unknown>;

export function VisibilityChip({ visibility, className }: { visibility: SettingVisibility; className?: string }) {
  const { icon: Icon, label, hint, className: tone } = VISIBILITY[visibility] ?? VISIBILITY.admin;
  return (
    <Badge variant="outline" data-visibility={visibility} title={hint} className={cn(tone, className)}>
      <Icon aria-hidden="true" />
      <span className="sr-only">Visibility: </span>
      {label}
    </Badge>
  );
}
