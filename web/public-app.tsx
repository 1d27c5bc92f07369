import * as React from "react";

import { VisitorControls } from "@/components/header-controls";
import { SiteLayout } from "@/components/layout/site-layout";
import type { Session } from "@/lib/session";
import { type SiteIdentity, SiteIdentityProvider } from "@/lib/site";
import { mutate } from "@/lib/trpc-fetch";
import { useHydrated } from "@/lib/use-hydrated";

// The tree of a prerendered public page, the same at build time (web/prerender.tsx, no visitor) and
// in the browser (web/public-entry.tsx), so React can hydrate the HTML.

const SignedInControls = React.lazy(() => import("@/components/signed-in-controls"));

export function PublicApp({ Page, site, session }: { Page: React.ComponentType; site: SiteIdentity; session: Session | null }) {
  return (
    <SiteIdentityProvider value={site}>
      <SiteLayout authControls={<PublicAuthControls session={session} />}>
        <Page />
      </SiteLayout>
    </SiteIdentityProvider>
  );
}

/** The top bar's sign-in controls (see header-controls.tsx), shown once hydrated. */
function PublicAuthControls({ session }: { session: Session | null }) {
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
