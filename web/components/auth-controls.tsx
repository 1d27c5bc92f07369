import * as React from "react";

import { useLogout, useSession } from "@/lib/auth";
import { useHydrated } from "@/lib/use-hydrated";
import { VisitorControls } from "./header-controls";

// The SPA's sign-in controls in the top bar (see header-controls.tsx): the session comes from the
// router's session query, logout through useLogout.

const SignedInControls = React.lazy(() => import("./signed-in-controls"));

export function AuthControls() {
  const hydrated = useHydrated();
  const { user, isPending } = useSession();
  const { logout, isPending: loggingOut } = useLogout();

  if (!hydrated || isPending) return null;
  if (!user) return <VisitorControls />;
  return (
    <React.Suspense fallback={null}>
      <SignedInControls user={user} onLogout={logout} loggingOut={loggingOut} />
    </React.Suspense>
  );
}
