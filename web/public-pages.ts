import type * as React from "react";

import type { SiteIdentity } from "@/lib/site";
import type { Islands } from "@/routes/-public/island";
import type { pageMeta } from "@/routes/-public/page-meta";

// Issue 5 item 3: the five public pages (and the order form) are rendered to HTML at build time (scripts/prerender.mjs)
// and hydrated in the browser by their own entry (web/public-entry.tsx), without the router, React
// Query or the tRPC client. They are rendered with the seed settings and no visitor; the root element
// carries a fingerprint of that, so the browser hydrates only the page's islands (issue 15,
// routes/-public/island.tsx) when its own data gives the same page, and renders the whole page afresh
// otherwise (an admin changed the club's name, a new year began).

export type PublicPage = {
  path: string;
  /** The file in dist/web the server sends for the path. */
  file: string;
  /** The page's title and description in routes/-public/page-meta.ts (the prerender writes them into the head). */
  meta: keyof typeof pageMeta;
  /** The module of the page's islands, relative to web/ (the prerender preloads its chunk). */
  source: string;
  islands: () => Promise<Islands>;
  /** The whole page: for the prerender, and for a fresh render in the browser. */
  load: () => Promise<React.ComponentType>;
};

export const PUBLIC_PAGES: readonly PublicPage[] = [
  {
    path: "/",
    file: "index.html",
    meta: "home",
    source: "routes/-public/islands/home.ts",
    islands: () => import("@/routes/-public/islands/home").then((m) => m.islands),
    load: () => import("@/routes/-public/pages/home-page").then((m) => m.HomePage),
  },
  {
    path: "/faq",
    file: "faq.html",
    meta: "faq",
    source: "routes/-public/islands/info.ts",
    islands: () => import("@/routes/-public/islands/info").then((m) => m.islands),
    load: () => import("@/routes/-public/pages/faq-page").then((m) => m.FaqPage),
  },
  {
    path: "/bestelinformatie",
    file: "bestelinformatie.html",
    meta: "orderInfo",
    source: "routes/-public/islands/info.ts",
    islands: () => import("@/routes/-public/islands/info").then((m) => m.islands),
    load: () => import("@/routes/-public/pages/order-info-page").then((m) => m.OrderInfoPage),
  },
  {
    path: "/privacy",
    file: "privacy.html",
    meta: "privacy",
    source: "routes/-public/islands/info.ts",
    islands: () => import("@/routes/-public/islands/info").then((m) => m.islands),
    load: () => import("@/routes/-public/pages/privacy-page").then((m) => m.PrivacyPage),
  },
  {
    path: "/contact",
    file: "contact.html",
    meta: "contact",
    source: "routes/-public/islands/contact.ts",
    islands: () => import("@/routes/-public/islands/contact").then((m) => m.islands),
    load: () => import("@/routes/-public/pages/contact-page").then((m) => m.ContactPage),
  },
  // Not one of the five info pages, but public and often opened on a phone: it starts as HTML too.
  {
    path: "/order",
    file: "order.html",
    meta: "order",
    source: "routes/-public/islands/order.ts",
    islands: () => import("@/routes/-public/islands/order").then((m) => m.islands),
    load: () => import("@/routes/-public/pages/order-page").then((m) => m.OrderPage),
  },
];

/** What a prerendered page depends on besides its code, as a stable string. */
export function prerenderFingerprint(site: SiteIdentity, now: Date): string {
  return JSON.stringify({ site, year: now.getFullYear() });
}
