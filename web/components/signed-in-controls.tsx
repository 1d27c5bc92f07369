import LogOutIcon from "lucide-react/icons/log-out";
import ShieldIcon from "lucide-react/icons/shield";

import { Button } from "@/components/ui/button";
import { Tooltip, TooltipContent, TooltipTrigger } from "@/components/ui/tooltip";
import { shell } from "@/i18n/messages/shell";
import { mayOpenAdminArea } from "@/lib/permissions";
import type { UserWithPermissions } from "#src/features/auth/permission-keys";
import { cn } from "@/lib/utils";
import { DEFAULT_LOCALE, type Locale } from "#src/core/locales";
import { headerControl } from "./header-controls";

// docs/product.md §2 "Layout", signed in: an Admin link (for whoever may open some admin page: admin.access, or
// management.access for a treasurer, docs/decisions/026), a Logout button (logs out, goes to
// /login) and an avatar with the username's first letter linking to /account, tooltip
// 'Account settings'. The caller decides how logging out works (SPA or prerendered page).
// docs/decisions/011: in the user's back-office language, read from the user it is given: the prerendered pages
// have no session query to ask (so only this area's texts are imported, not the whole catalogue).
export default function SignedInControls({
  user,
  onLogout,
  loggingOut,
}: {
  user: UserWithPermissions & { username: string; locale?: Locale };
  onLogout: () => Promise<void>;
  loggingOut: boolean;
}) {
  const initial = (Array.from(user.username)[0] ?? "?").toUpperCase();
  const t = shell[user.locale ?? DEFAULT_LOCALE].header;
  return (
    <nav aria-label={t.nav} className="flex shrink-0 items-center gap-1 sm:gap-2">
      {mayOpenAdminArea(user) && (
        <Button asChild variant="ghost" className={headerControl}>
          <a href="/admin">
            <ShieldIcon aria-hidden="true" className="hidden sm:block" />
            {t.admin}
          </a>
        </Button>
      )}
      <Button
        variant="ghost"
        className={headerControl}
        onClick={() => void onLogout()}
        disabled={loggingOut}
        aria-busy={loggingOut || undefined}
      >
        <LogOutIcon aria-hidden="true" className="hidden sm:block" />
        {t.logout}
      </Button>
      <Tooltip>
        <TooltipTrigger asChild>
          {/* biome-ignore lint/a11y/useAnchorContent: aria-label names the link; the initial inside is decorative */}
          <a
            href="/account"
            aria-label={t.accountSettings}
            className={cn(
              "ml-1 flex size-9 shrink-0 items-center justify-center rounded-full bg-white text-base font-bold text-primary outline-none",
              "ring-offset-2 ring-offset-header transition-shadow hover:ring-2 hover:ring-white/70 focus-visible:ring-[3px] focus-visible:ring-white/80",
            )}
          >
            <span aria-hidden="true">{initial}</span>
          </a>
        </TooltipTrigger>
        <TooltipContent side="bottom">{t.accountSettings}</TooltipContent>
      </Tooltip>
    </nav>
  );
}
