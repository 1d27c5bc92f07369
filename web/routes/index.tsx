import { createFileRoute } from "@tanstack/react-router";

import { HomePage } from "./-public/pages/home-page";

// docs/product.md §1 and §2 "Landing page"; prerendered at build time (scripts/prerender.mjs).
export const Route = createFileRoute("/")({
  component: HomePage,
});
