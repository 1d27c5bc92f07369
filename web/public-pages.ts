import type * as React from "react";

import type { SiteIdentity } from "@/lib/site";
import type { FileRoutesByFullPath } from "@/routeTree.gen";
import type { Islands } from "@/routes/-public/island";
import type { pageMeta } from "@/routes/-public/page-meta";
import { PUBLIC_PAGES as PAGES, type PrivateScreen, type PublicPath } from "#src/core/public-pages";

// docs/decisions/015: the five public pages (and the order form) are rendered to HTML at build time (scripts/prerender.mjs)
// and hydrated in the browser by their own entry (web/public-entry.tsx), without the router, React
// Query or the tRPC client. They are rendered with the seed settings and no visitor; the root element
// carries a fingerprint of that, so the browser hydrates only the page's islands (docs/decisions/015,
// routes/-public/island.tsx) when its own data gives the same page, and renders the whole page afresh
// otherwise (an admin changed the club's name, a new year began).

/** A public page's code, beside its path and file (src/core/public-pages.ts). */
type PageCode = {
  /** The page's title and description in routes/-public/page-meta.ts (the prerender writes them into the head). */
  meta: keyof typeof pageMeta;
  /** The module of the page's islands, relative to web/ (the prerender preloads its chunk). */
  source: string;
  islands: () => Promise<Islands>;
  /** The whole page: for the prerender, and for a fresh render in the browser. */
  load: () => Promise<React.ComponentType>;
};

// Keyed by the registry's paths: a public page without its code, or code for a page that is not in
// the registry, does not compile.
const PAGE_CODE = {
  "/": {
    meta: "home",
    source: "routes/-public/islands/home.ts",
    islands: () => import("@/routes/-public/islands/home").then((m) => m.islands),
    load: () => import("@/routes/-public/pages/home-page").then((m) => m.HomePage),
  },
  "/faq": {
    meta: "faq",
    source: "routes/-public/islands/info.ts",
    islands: () => import("@/routes/-public/islands/info").then((m) => m.islands),
    load: () => import("@/routes/-public/pages/faq-page").then((m) => m.FaqPage),
  },
  "/bestelinformatie": {
    meta: "orderInfo",
    source: "routes/-public/islands/info.ts",
    islands: () => import("@/routes/-public/islands/info").then((m) => m.islands),
    load: () => import("@/routes/-public/pages/order-info-page").then((m) => m.OrderInfoPage),
  },
  "/privacy": {
    meta: "privacy",
    source: "routes/-public/islands/info.ts",
    islands: () => import("@/routes/-public/islands/info").then((m) => m.islands),
    load: () => import("@/routes/-public/pages/privacy-page").then((m) => m.PrivacyPage),
  },
  "/contact": {
    meta: "contact",
    source: "routes/-public/islands/contact.ts",
    islands: () => import("@/routes/-public/islands/contact").then((m) => m.islands),
    load: () => import("@/routes/-public/pages/contact-page").then((m) => m.ContactPage),
  },
  "/order": {
    meta: "order",
    source: "routes/-public/islands/order.ts",
    islands: () => import("@/routes/-public/islands/order").then((m) => m.islands),
    load: () => import("@/routes/-public/pages/order-page").then((m) => m.OrderPage),
  },
  "/bestelling": {
    meta: "orderStatus",
    source: "routes/-public/islands/order-status.ts",
    islands: () => import("@/routes/-public/islands/order-status").then((m) => m.islands),
    load: () => import("@/routes/-public/pages/order-status-page").then((m) => m.OrderStatusPage),
  },
  "/bestellen": {
    meta: "sellerOrder",
    source: "routes/-public/islands/seller.ts",
    islands: () => import("@/routes/-public/islands/seller").then((m) => m.islands),
    load: () => import("@/routes/-public/pages/seller-page").then((m) => m.SellerPage),
  },
} satisfies Record<PublicPath, PageCode>;

export type PublicPage = (typeof PAGES)[number] & PageCode;

export const PUBLIC_PAGES: readonly PublicPage[] = PAGES.map((page) => ({ ...page, ...PAGE_CODE[page.path] }));

/**
 * Every route of the SPA is a public page or a private screen (robots.txt keeps crawlers out of those):
 * a route in neither list fails to compile here, naming its path.
 */
type RoutesInNeitherList = Exclude<keyof FileRoutesByFullPath, PublicPath | PrivateScreen | `${PrivateScreen}/${string}`>;
export type EveryRouteIsListed = Assert<RoutesInNeitherList>;
type Assert<Nothing extends never> = Nothing;

/** What a prerendered page depends on besides its code, as a stable string. */
export function prerenderFingerprint(site: SiteIdentity, now: Date): string {
  return JSON.stringify({ site, year: now.getFullYear() });
}
