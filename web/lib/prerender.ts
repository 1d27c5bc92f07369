import { pageMeta } from "@/routes/-public/page-meta";
import type { PageMeta } from "@/lib/page-meta";
import type { SiteIdentity } from "@/lib/site";

// Issue 5 item 3: the five public pages are rendered to HTML at build time (scripts/prerender.mjs) and
// hydrated in the browser. They are rendered with the seed settings and no signed-in user; the root
// element carries what they were rendered with, so the browser hydrates only when its own data gives
// the same page, and renders afresh otherwise (an admin changed the club's name, a new year began).

export const PRERENDERED_PAGES: ReadonlyArray<{ path: string; file: string; meta: (site: SiteIdentity) => PageMeta }> = [
  { path: "/", file: "index.html", meta: pageMeta.home },
  { path: "/faq", file: "faq.html", meta: pageMeta.faq },
  { path: "/bestelinformatie", file: "bestelinformatie.html", meta: pageMeta.orderInfo },
  { path: "/privacy", file: "privacy.html", meta: pageMeta.privacy },
  { path: "/contact", file: "contact.html", meta: pageMeta.contact },
];

/** What a prerendered page depends on besides its code, as a stable string. */
export function prerenderFingerprint(site: SiteIdentity, now: Date): string {
  return JSON.stringify({ site, year: now.getFullYear() });
}
