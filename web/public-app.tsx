import type * as React from "react";

import { SiteLayout } from "@/components/layout/site-layout";
import type { Session } from "@/lib/session";
import type { SiteIdentity } from "@/lib/site";
import { Island, PublicProviders } from "@/routes/-public/island";
import { PublicAuthControls } from "@/routes/-public/public-auth-controls";

// The whole tree of a prerendered public page: rendered at build time (web/prerender.tsx, no visitor,
// the islands apart) and in the browser only when the settings no longer give the page that was built
// (web/public-entry.tsx); otherwise the browser hydrates the islands alone.

export function PublicApp({ Page, site, session }: { Page: React.ComponentType; site: SiteIdentity; session: Session | null }) {
  return (
    <PublicProviders site={site} session={session}>
      <SiteLayout authControls={<Island name="auth-controls" component={PublicAuthControls} />}>
        <Page />
      </SiteLayout>
    </PublicProviders>
  );
}
