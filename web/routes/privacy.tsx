import { createFileRoute } from "@tanstack/react-router";

import { PrivacyPage } from "./-public/pages/privacy-page";

// Prerendered at build time (scripts/prerender.mjs); inside the SPA it is this route.
export const Route = createFileRoute("/privacy")({
  component: PrivacyPage,
});
