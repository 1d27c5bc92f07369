import { createFileRoute } from "@tanstack/react-router";

import { ContactPage } from "./-public/pages/contact-page";

// Prerendered at build time (scripts/prerender.mjs); inside the SPA it is this route.
export const Route = createFileRoute("/contact")({
  component: ContactPage,
});
