import type * as React from "react";

import type { PageMeta } from "@/lib/page-meta";
import type { SiteIdentity } from "@/lib/site";
import { pageMeta } from "@/routes/-public/page-meta";

// Issue 5 item 3: the five public pages (and the order form) are rendered to HTML at build time (scripts/prerender.mjs)
// and hydrated in the browser by their own entry (web/public-entry.tsx), without the router, React
// Query or the tRPC client. They are rendered with the seed settings and no visitor; the root element
// carries a fingerprint of that, so the browser hydrates only when its own data gives the same page
// and renders afresh otherwise (an admin changed the club's name, a new year began).

export type PublicPage = {
  path: string;
  /** The file in dist/web the server sends for the path. */
  file: string;
  meta: (site: SiteIdentity) => PageMeta;
  /** The page's module, relative to web/ (the prerender preloads its chunk). */
  source: string;
  load: () => Promise<React.ComponentType>;
};

export const PUBLIC_PAGES: readonly PublicPage[] = [
  { path: "/", file: "index.html", meta: pageMeta.home, source: "routes/-public/pages/home-page.tsx", load: () => import("@/routes/-public/pages/home-page").then((m) => m.HomePage) },
  { path: "/faq", file: "faq.html", meta: pageMeta.faq, source: "routes/-public/pages/faq-page.tsx", load: () => import("@/routes/-public/pages/faq-page").then((m) => m.FaqPage) },
  {
    path: "/bestelinformatie",
    file: "bestelinformatie.html",
    meta: pageMeta.orderInfo,
    source: "routes/-public/pages/order-info-page.tsx", load: () => import("@/routes/-public/pages/order-info-page").then((m) => m.OrderInfoPage),
  },
  { path: "/privacy", file: "privacy.html", meta: pageMeta.privacy, source: "routes/-public/pages/privacy-page.tsx", load: () => import("@/routes/-public/pages/privacy-page").then((m) => m.PrivacyPage) },
  { path: "/contact", file: "contact.html", meta: pageMeta.contact, source: "routes/-public/pages/contact-page.tsx", load: () => import("@/routes/-public/pages/contact-page").then((m) => m.ContactPage) },
  // Not one of the five info pages, but public and often opened on a phone: it starts as HTML too.
  { path: "/order", file: "order.html", meta: pageMeta.order, source: "routes/-public/pages/order-page.tsx", load: () => import("@/routes/-public/pages/order-page").then((m) => m.OrderPage) },
];

/** What a prerendered page depends on besides its code, as a stable string. */
export function prerenderFingerprint(site: SiteIdentity, now: Date): string {
  return JSON.stringify({ site, year: now.getFullYear() });
}
