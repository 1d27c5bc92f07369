import { StrictMode, startTransition } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";

import { shouldRedirectToMaintenance } from "@/lib/maintenance";
import type { Session } from "@/lib/session";
import { type SettingsLookup, toSettingsLookup } from "@/lib/settings";
import { siteFromSettings } from "@/lib/site";
import { queryProcedures } from "@/lib/trpc-fetch";
import { IslandRoot, islandIdPrefix } from "@/routes/-public/island";
import { prerenderFingerprint, PUBLIC_PAGES } from "./public-pages";
import "./styles.css";

// The browser entry of the five prerendered public pages (docs/decisions/015). It asks the server for the
// settings and the session in one request while the page's islands load, sends the visitor to
// /maintenance when the site is closed (docs/product.md §2 Guards), and then hydrates the islands (docs/decisions/015,
// routes/-public/island.tsx) — or, when the settings no longer give the page that was built, loads the
// whole page and renders it afresh. Links to the rest of the site are plain page loads; the SPA
// (web/main.tsx) takes over there.

void start();

async function loadVisitorData(): Promise<{ settings: SettingsLookup; session: Session | null }> {
  try {
    const [settings, session] = await queryProcedures(["settings.list", "account.me"]);
    return {
      settings: settings instanceof Error ? {} : toSettingsLookup(settings.settings),
      session: session instanceof Error ? null : session,
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

  const [{ settings, session }, islands] = await Promise.all([loadVisitorData(), page.islands()]);
  const user = session?.loggedIn ? session.user : null;
  if (shouldRedirectToMaintenance(settings, user, page.path)) {
    window.location.replace("/maintenance");
    return;
  }
  const site = siteFromSettings(settings);
  if (prerenderFingerprint(site, new Date()) === root.dataset.fingerprint) {
    // In a transition React hydrates in slices and lets the browser in between: no long task holds up
    // the visitor's first tap (Lighthouse's Total Blocking Time).
    startTransition(() => {
      for (const container of root.querySelectorAll<HTMLElement>("[data-island]")) {
        const name = container.dataset.island ?? "";
        const component = islands[name];
        if (!component) throw new Error(`${page.source} has no island "${name}"`);
        hydrateRoot(container, <IslandRoot site={site} session={session} component={component} />, {
          identifierPrefix: islandIdPrefix(name),
        });
      }
    });
    return;
  }
  const [{ PublicApp }, Page] = await Promise.all([import("./public-app"), page.load()]);
  root.replaceChildren();
  createRoot(root).render(
    <StrictMode>
      <PublicApp Page={Page} site={site} session={session} />
    </StrictMode>,
  );
}
