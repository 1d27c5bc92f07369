// Build-time entry (scripts/prerender.mjs bundles it with Vite for Node): renders one public page to
// HTML with the same component tree the browser renders, so main.tsx can hydrate it.
import { RouterProvider } from "@tanstack/react-router";
import { StrictMode } from "react";
import { renderToString } from "react-dom/server";

import { PRERENDERED_PAGES, prerenderFingerprint } from "@/lib/prerender";
import { sessionQueryOptions } from "@/lib/session";
import { DEFAULT_SITE } from "@/lib/site";
import { createRouter } from "./router";

export type PrerenderedPage = { path: string; file: string; html: string; title: string; description: string; fingerprint: string };

export { PRERENDERED_PAGES };

export async function renderPage(path: string, now = new Date()): Promise<PrerenderedPage> {
  const page = PRERENDERED_PAGES.find((candidate) => candidate.path === path);
  if (!page) throw new Error(`${path} is not a prerendered page`);

  const router = createRouter({ prerenderPath: path });
  const { queryClient, trpc } = router.options.context;
  // No server at build time: the page is rendered with the seed settings (the defaults of
  // siteFromSettings) and nobody signed in. Nothing else may be asked for.
  queryClient.setQueryData(trpc.settings.list.queryKey(), { settings: [] });
  queryClient.setQueryData(sessionQueryOptions(trpc).queryKey, { loggedIn: false } as never);
  queryClient.getQueryCache().subscribe((event) => {
    if (event.type === "added") throw new Error(`Prerendering ${path} asked for ${JSON.stringify(event.query.queryKey)}`);
  });

  await router.load();
  if (router.state.location.pathname !== path || router.state.matches.some((match) => match.status !== "success")) {
    throw new Error(`Prerendering ${path} did not load cleanly (${router.state.location.pathname})`);
  }
  const html = renderToString(
    <StrictMode>
      <RouterProvider router={router} />
    </StrictMode>,
  );
  const meta = page.meta(DEFAULT_SITE);
  return { path, file: page.file, html, ...meta, fingerprint: prerenderFingerprint(DEFAULT_SITE, now) };
}
