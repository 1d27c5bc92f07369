import { Link } from "@tanstack/react-router";
import LogOutIcon from "lucide-react/icons/log-out";
import ShieldIcon from "lucide-react/icons/shield";

import { Button } from "@/components/ui/button";
import { Tooltip, TooltipContent, TooltipTrigger } from "@/components/ui/tooltip";
import { useLogout } from "@/lib/auth";
import { ADMIN_ACCESS, hasPermission } from "@/lib/permissions";
import type { SessionUser } from "@/lib/session";
import { cn } from "@/lib/utils";
import { headerControl } from "./header-control";

// spec §2 "Layout", signed in: an Admin link (admin.access only), a Logout button (logs out, goes to
// /login) and an avatar with the username's first letter linking to /account, tooltip
// 'Account settings'. A chunk of its own (see auth-controls.tsx).
export default function SignedInControls({ user }: { user: SessionUser }) {
  const { logout, isPending: loggingOut } = useLogout();
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
