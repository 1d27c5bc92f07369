import * as React from "react";

import type { Session } from "@/lib/session";
import { type SiteIdentity, SiteIdentityProvider } from "@/lib/site";

// docs/decisions/015: a prerendered page that is still current hydrates only its islands, the parts that act
// (the sign-in controls, the charity tiles' image modal, the forms). The rest of its HTML stays as the
// build wrote it, so the browser neither downloads nor runs the code of the whole page (at most 80 KB
// of JavaScript for /). Each island is a React root of its own, rendered on its own at build time
// (web/prerender.tsx) inside the same IslandRoot, so its HTML and React's ids are what hydrateRoot
// expects in the browser (web/public-entry.tsx).

/** A page's islands by name: components without props, which read the site and the visitor from context. */
export type Islands = Readonly<Record<string, React.ComponentType>>;

/** The prerender's record of a page's islands: `add` returns the placeholder the island's HTML replaces. */
export type IslandCollector = { add: (name: string, component: React.ComponentType) => string };

export const IslandCollectorContext = React.createContext<IslandCollector | null>(null);

/**
 * A part of a public page that needs its script. In the SPA and in a fresh render it is the component
 * itself; in the prerender it is a <div data-island> (without a box of its own) holding the island's HTML.
 */
export function Island({ name, component: Component }: { name: string; component: React.ComponentType }) {
  const collector = React.useContext(IslandCollectorContext);
  if (!collector) return <Component />;
  // biome-ignore lint/security/noDangerouslySetInnerHtml: prerender only; the collector's placeholder becomes the island's own React-rendered HTML
  return <div data-island={name} className="contents" dangerouslySetInnerHTML={{ __html: collector.add(name, Component) }} />;
}

const SessionContext = React.createContext<Session | null>(null);

/** The visitor's session as the public entry fetched it; null in the prerender and until known. */
export function useVisitorSession(): Session | null {
  return React.useContext(SessionContext);
}

/** What every public page and each of its islands is rendered in: the club's identity and the visitor. */
export function PublicProviders({ site, session, children }: { site: SiteIdentity; session: Session | null; children: React.ReactNode }) {
  return (
    <SiteIdentityProvider value={site}>
      <SessionContext value={session}>{children}</SessionContext>
    </SiteIdentityProvider>
  );
}

/** The tree of one island, the same in the prerender and in the browser. */
export function IslandRoot({
  site,
  session,
  component: Component,
}: {
  site: SiteIdentity;
  session: Session | null;
  component: React.ComponentType;
}) {
  return (
    <React.StrictMode>
      <PublicProviders site={site} session={session}>
        <Component />
      </PublicProviders>
    </React.StrictMode>
  );
}

/** React's ids (useId) of an island's root start with its name, so two islands never share one. */
export const islandIdPrefix = (name: string) => `${name}-`;
