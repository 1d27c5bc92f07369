import { RouterProvider } from "@tanstack/react-router";
import { StrictMode } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";

import { prerenderFingerprint } from "@/lib/prerender";
import { toSettingsLookup } from "@/lib/settings";
import { siteFromSettings } from "@/lib/site";
import { createRouter } from "./router";
import "./styles.css";

const container = document.getElementById("root");
if (!container) throw new Error("Missing #root element in index.html");

const router = createRouter();
const app = (
  <StrictMode>
    <RouterProvider router={router} />
  </StrictMode>
);

void start(container);

/**
 * A prerendered public page (scripts/prerender.mjs) is hydrated: the router first loads what the page
 * needs (settings, session, the page's code), then React adopts the HTML already on screen. When the
 * browser's data would give another page than the one built — the settings changed since the build,
 * maintenance mode sent the visitor elsewhere — the page is rendered afresh instead. Every other
 * route starts from the empty shell.
 */
async function start(root: HTMLElement) {
  const prerenderedPath = root.dataset.prerendered;
  if (!prerenderedPath) {
    createRoot(root).render(app);
    return;
  }
  await router.load();
  const { queryClient, trpc } = router.options.context;
  const settings = queryClient.getQueryData(trpc.settings.list.queryKey());
  const samePage =
    router.state.location.pathname === prerenderedPath &&
    router.state.matches.every((match) => match.status === "success") &&
    prerenderFingerprint(siteFromSettings(toSettingsLookup(settings?.settings)), new Date()) === root.dataset.fingerprint;
  if (samePage) {
    hydrateRoot(root, app);
  } else {
    root.replaceChildren();
    createRoot(root).render(app);
  }
}
