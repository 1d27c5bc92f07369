// Build-time entry (scripts/prerender.mjs bundles it with Vite for Node): renders one public page to
// HTML with the seed settings and no visitor: the whole tree as web/public-entry.tsx renders it afresh,
// and each island (routes/-public/island.tsx) as the separate root the entry hydrates.
import type * as React from "react";
import { StrictMode } from "react";
import { renderToString } from "react-dom/server";

import { DEFAULT_SITE } from "@/lib/site";
import { IslandCollectorContext, IslandRoot, islandIdPrefix } from "@/routes/-public/island";
import { pageMeta } from "@/routes/-public/page-meta";
import { PublicApp } from "./public-app";
import { prerenderFingerprint, PUBLIC_PAGES } from "./public-pages";

export type PrerenderedPage = {
  path: string;
  file: string;
  source: string;
  html: string;
  title: string;
  description: string;
  /** The page is for one visitor (docs/decisions/067): its head says `noindex`. */
  noindex: boolean;
  fingerprint: string;
};

export const PAGE_PATHS = PUBLIC_PAGES.map((page) => page.path);

export async function renderPage(path: string, now = new Date()): Promise<PrerenderedPage> {
  const page = PUBLIC_PAGES.find((candidate) => candidate.path === path);
  if (!page) throw new Error(`${path} is not a prerendered page`);
  const [Page, islands] = await Promise.all([page.load(), page.islands()]);

  const found = new Map<string, React.ComponentType>();
  const placeholder = (name: string) => `<!--island:${name}-->`;
  const collector = {
    add(name: string, component: React.ComponentType) {
      // The browser finds an island's component by name in the page's islands module.
      if (islands[name] !== component) throw new Error(`${path}: the island "${name}" is not in ${page.source} as that component`);
      if (found.has(name)) throw new Error(`${path}: the island "${name}" appears twice`);
      found.set(name, component);
      return placeholder(name);
    },
  };
  let html = renderToString(
    <StrictMode>
      <IslandCollectorContext value={collector}>
        <PublicApp Page={Page} site={DEFAULT_SITE} session={null} />
      </IslandCollectorContext>
    </StrictMode>,
  );
  const unused = Object.keys(islands).filter((name) => !found.has(name));
  if (unused.length > 0) throw new Error(`${path}: ${page.source} names islands the page does not have: ${unused.join(", ")}`);
  for (const [name, component] of found) {
    const island = renderToString(<IslandRoot site={DEFAULT_SITE} session={null} component={component} />, {
      identifierPrefix: islandIdPrefix(name),
    });
    html = html.replace(placeholder(name), () => island);
  }
  const { title, description, noindex = false } = pageMeta[page.meta](DEFAULT_SITE);
  return {
    path,
    file: page.file,
    source: page.source,
    html,
    title,
    description,
    noindex,
    fingerprint: prerenderFingerprint(DEFAULT_SITE, now),
  };
}
