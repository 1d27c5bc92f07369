import { createFileRoute } from "@tanstack/react-router";

import { OrderPage } from "./-public/pages/order-page";

// docs/product.md §2 "Order screen"; prerendered at build time (scripts/prerender.mjs); inside the SPA it is this route.
export const Route = createFileRoute("/order")({
  component: OrderPage,
});
