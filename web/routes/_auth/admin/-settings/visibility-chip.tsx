import GlobeIcon from "lucide-react/icons/globe";
import ShieldIcon from "lucide-react/icons/shield";
import UserIcon from "lucide-react/icons/user";

import { Badge } from "@/components/ui/badge";
import { useMessages } from "@/i18n/use-messages";
import { cn } from "@/lib/utils";
import type { SettingVisibility } from "./setting-utils";

// docs/architecture.md §3 visibility: public to everyone, private to signed-in users, admin to admin.access holders.
const VISIBILITY = {
  public: { icon: GlobeIcon, className: "border-primary/30 bg-accent text-accent-foreground" },
  private: { icon: UserIcon, className: "bg-secondary text-secondary-foreground" },
  admin: { icon: ShieldIcon, className: "border-foreground/20 bg-background text-foreground" },
} as const satisfies Record<SettingVisibility, unknown>;

export function VisibilityChip({ visibility, className }: { visibility: SettingVisibility; className?: string }) {
  const t = useMessages();
  const known: SettingVisibility = Object.hasOwn(VISIBILITY, visibility) ? visibility : "admin";
  const { icon: Icon, className: tone } = VISIBILITY[known];
  const { label, hint } = t.settings.visibility[known];
  return (
    <Badge variant="outline" data-visibility={visibility} title={hint} className={cn(tone, className)}>
      <Icon aria-hidden="true" />
      <span className="sr-only">{t.settings.visibility.prefix}</span>
      {label}
    </Badge>
  );
}
