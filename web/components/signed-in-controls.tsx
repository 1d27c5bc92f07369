import LogOutIcon from "lucide-react/icons/log-out";
import ShieldIcon from "lucide-react/icons/shield";

import { Button } from "@/components/ui/button";
import { Tooltip, TooltipContent, TooltipTrigger } from "@/components/ui/tooltip";
import { mayOpenAdminArea, type UserWithPermissions } from "@/lib/permissions";
import { cn } from "@/lib/utils";
import { headerControl } from "./header-controls";

// spec §2 "Layout", signed in: an Admin link (for whoever may open some admin page: admin.access, or
// management.access for a treasurer, issue 13), a Logout button (logs out, goes to
// /login) and an avatar with the username's first letter linking to /account, tooltip
// 'Account settings'. The caller decides how logging out works (SPA or prerendered page).
export default function SignedInControls({
  user,
  onLogout,
  loggingOut,
}: {
  user: UserWithPermissions & { username: string };
  onLogout: () => Promise<void>;
  loggingOut: boolean;
}) {
  const initial = (Array.from(user.username)[0] ?? "?").toUpperCase();
  return (
    <nav aria-label="Account" className="flex shrink-0 items-center gap-1 sm:gap-2">
      {mayOpenAdminArea(user) && (
        <Button asChild variant="ghost" className={headerControl}>
          <a href="/admin">
            <ShieldIcon aria-hidden="true" className="hidden sm:block" />
            Admin
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
        Logout
      </Button>
      <Tooltip>
        <TooltipTrigger asChild>
          <a
            href="/account"
            aria-label="Account settings"
            className={cn(
              "ml-1 flex size-9 shrink-0 items-center justify-center rounded-full bg-white text-base font-bold text-primary outline-none",
              "ring-offset-2 ring-offset-header transition-shadow hover:ring-2 hover:ring-white/70 focus-visible:ring-[3px] focus-visible:ring-white/80",
            )}
          >
            <span aria-hidden="true">{initial}</span>
          </a>
        </TooltipTrigger>
        <TooltipContent side="bottom">Account settings</TooltipContent>
      </Tooltip>
    </nav>
  );
}
