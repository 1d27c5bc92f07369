import { StrictMode } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";

import { shouldRedirectToMaintenance } from "@/lib/maintenance";
import type { Session } from "@/lib/session";
import { type SettingsLookup, toSettingsLookup } from "@/lib/settings";
import { siteFromSettings } from "@/lib/site";
import { queryProcedures } from "@/lib/trpc-fetch";
import { PublicApp } from "./public-app";
import { prerenderFingerprint, PUBLIC_PAGES } from "./public-pages";
import "./styles.css";

// The browser entry of the five prerendered public pages (issue 5 item 3). It asks the server for the
// settings and the session in one request while the page's code loads, sends the visitor to
// /maintenance when the site is closed (spec §2 Guards), and then hydrates the HTML — or renders
// afresh when the settings no longer give the page that was built. Links to the rest of the site are
// plain page loads; the SPA (web/main.tsx) takes over there.

void start();

async function loadVisitorData(): Promise<{ settings: SettingsLookup; session: Session | null }> {
  try {
    const [settings, session] = await queryProcedures(["settings.list", "account.me"]);
    return {
      settings: settings instanceof Error ? {} : toSettingsLookup((settings as { settings: Parameters<typeof toSettingsLookup>[0] }).settings),
      session: session instanceof Error ? null : (session as Session),
    };
  } catch (error) {
    console.error("Failed to load the settings and the session", error);
    return { settings: {}, session: null };
  }
}

async function start() {
  const root = document.getElementById("root");
  const page = PUBLIC_PAGES.find((candidate) => candidate.path === root?.dataset.prerendered);
  if (!root || !page) throw new Error("This entry serves the prerendered public pages only");

  const [{ settings, session }, Page] = await Promise.all([loadVisitorData(), page.load()]);
  const user = session?.loggedIn ? session.user : null;
  if (shouldRedirectToMaintenance(settings, user, page.path)) {
    window.location.replace("/maintenance");
    return;
  }
  const site = siteFromSettings(settings);
  const app = (
    <StrictMode>
      <PublicApp Page={Page} site={site} session={session} />
    </StrictMode>
  );
  if (prerenderFingerprint(site, new Date()) === root.dataset.fingerprint) {
    hydrateRoot(root, app);
  } else {
    root.replaceChildren();
    createRoot(root).render(app);
  }
}
