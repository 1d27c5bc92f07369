import { Link } from "@tanstack/react-router";
import * as React from "react";

import { Button } from "@/components/ui/button";
import { useSession } from "@/lib/auth";
import { useHydrated } from "@/lib/use-hydrated";
import { headerControl } from "./header-control";

// spec §2 "Layout", the top bar's auth controls:
// - nothing while the sign-in check runs (and in the prerendered HTML, which knows no visitor);
// - nobody signed in: links to /login and /register;
// - signed in: the controls of ./signed-in-controls, loaded only then, so visitors of the public
//   pages never download them (issue 5 item 3).

const SignedInControls = React.lazy(() => import("./signed-in-controls"));

export function AuthControls() {
  const hydrated = useHydrated();
  const { user, isPending } = useSession();

  if (!hydrated || isPending) return null;

  if (user) {
    return (
      <React.Suspense fallback={null}>
        <SignedInControls user={user} />
      </React.Suspense>
    );
  }

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
