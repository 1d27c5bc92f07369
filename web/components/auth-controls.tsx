import { Link } from "@tanstack/react-router";
import LogOutIcon from "lucide-react/icons/log-out";
import ShieldIcon from "lucide-react/icons/shield";

import { Button } from "@/components/ui/button";
import { Tooltip, TooltipContent, TooltipTrigger } from "@/components/ui/tooltip";
import { useLogout, useSession } from "@/lib/auth";
import { ADMIN_ACCESS, hasPermission } from "@/lib/permissions";
import { cn } from "@/lib/utils";

// spec §2 "Layout", the top bar's auth controls:
// - nothing while the sign-in check runs;
// - nobody signed in: links to /login and /register;
// - signed in: an Admin link (admin.access only), a Logout button (logs out, goes to /login) and an
//   avatar with the username's first letter linking to /account, tooltip 'Account settings'.

const headerControl =
  "h-9 px-2.5 text-header-foreground hover:bg-white/15 hover:text-header-foreground focus-visible:ring-white/60 sm:px-3";

export function AuthControls() {
  const { user, isPending } = useSession();
  const { logout, isPending: loggingOut } = useLogout();

  if (isPending) return null;

  if (!user) {
    return (
      <nav aria-label="Account" className="flex shrink-0 items-center gap-1 sm:gap-2">
        <Button asChild variant="ghost" className={headerControl}>
          <Link to="/login">Login</Link>
        </Button>
        <Button
          asChild
          className="h-9 bg-white px-2.5 text-primary shadow-none hover:bg-white/90 focus-visible:ring-white/60 sm:px-3"
        >
          <Link to="/register">Register</Link>
        </Button>
      </nav>
    );
  }

  const initial = (Array.from(user.username)[0] ?? "?").toUpperCase();
  return (
    <nav aria-label="Account" className="flex shrink-0 items-center gap-1 sm:gap-2">
      {hasPermission(user, ADMIN_ACCESS) && (
        <Button asChild variant="ghost" className={headerControl}>
          <Link to="/admin">
            <ShieldIcon aria-hidden="true" className="hidden sm:block" />
            Admin
          </Link>
        </Button>
      )}
      <Button
        variant="ghost"
        className={headerControl}
        onClick={() => void logout()}
        disabled={loggingOut}
        aria-busy={loggingOut || undefined}
      >
        <LogOutIcon aria-hidden="true" className="hidden sm:block" />
        Logout
      </Button>
      <Tooltip>
        <TooltipTrigger asChild>
          <Link
            to="/account"
            aria-label="Account settings"
            className={cn(
              "ml-1 flex size-9 shrink-0 items-center justify-center rounded-full bg-white text-base font-bold text-primary outline-none",
              "ring-offset-2 ring-offset-header transition-shadow hover:ring-2 hover:ring-white/70 focus-visible:ring-[3px] focus-visible:ring-white/80",
            )}
          >
            <span aria-hidden="true">{initial}</span>
          </Link>
        </TooltipTrigger>
        <TooltipContent side="bottom">Account settings</TooltipContent>
      </Tooltip>
    </nav>
  );
}
