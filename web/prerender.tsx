// Build-time entry (scripts/prerender.mjs bundles it with Vite for Node): renders one public page to
// HTML with the very tree web/public-entry.tsx hydrates, with the seed settings and no visitor.
import { StrictMode } from "react";
import { renderToString } from "react-dom/server";

import { DEFAULT_SITE } from "@/lib/site";
import { PublicApp } from "./public-app";
import { prerenderFingerprint, PUBLIC_PAGES } from "./public-pages";

export type PrerenderedPage = { path: string; file: string; source: string; html: string; title: string; description: string; fingerprint: string };

export const PAGE_PATHS = PUBLIC_PAGES.map((page) => page.path);

export async function renderPage(path: string, now = new Date()): Promise<PrerenderedPage> {
  const page = PUBLIC_PAGES.find((candidate) => candidate.path === path);
  if (!page) throw new Error(`${path} is not a prerendered page`);
  const Page = await page.load();
  const html = renderToString(
    <StrictMode>
      <PublicApp Page={Page} site={DEFAULT_SITE} session={null} />
    </StrictMode>,
  );
  return { path, file: page.file, source: page.source, html, ...page.meta(DEFAULT_SITE), fingerprint: prerenderFingerprint(DEFAULT_SITE, now) };
}
