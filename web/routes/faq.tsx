import { createFileRoute } from "@tanstack/react-router";

import { FaqPage } from "./-public/pages/faq-page";

// Prerendered at build time (scripts/prerender.mjs); inside the SPA it is this route.
export const Route = createFileRoute("/faq")({
  component: FaqPage,
});
