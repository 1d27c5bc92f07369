import * as React from "react";

import { VisitorControls } from "@/components/header-controls";
import { mutate } from "@/lib/trpc-fetch";
import { useHydrated } from "@/lib/use-hydrated";
import { useVisitorSession } from "./island";

// The top bar's sign-in controls of the prerendered pages (see header-controls.tsx): an island of every
// page, shown once hydrated, with the session the public entry fetched.

const SignedInControls = React.lazy(() => import("@/components/signed-in-controls"));

export function PublicAuthControls() {
  const session = useVisitorSession();
  const hydrated = useHydrated();
  const [loggingOut, setLoggingOut] = React.useState(false);

  if (!hydrated) return null;
  if (!session?.loggedIn) return <VisitorControls />;

  async function logout() {
    setLoggingOut(true);
    try {
      await mutate("account.logout", undefined);
    } catch (error) {
      // As in the SPA: the visitor is sent to /login either way; the server forgets the session
      // when it expires.
      console.warn("Logout failed", error);
    }
    window.location.assign("/login");
  }

  return (
    <React.Suspense fallback={null}>
      <SignedInControls user={session.user} onLogout={logout} loggingOut={loggingOut} />
    </React.Suspense>
  );
}
