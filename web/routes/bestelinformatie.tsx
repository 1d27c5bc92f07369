import { createFileRoute } from "@tanstack/react-router";

import { OrderInfoPage } from "./-public/pages/order-info-page";

// Prerendered at build time (scripts/prerender.mjs); inside the SPA it is this route.
export const Route = createFileRoute("/bestelinformatie")({
  component: OrderInfoPage,
});
