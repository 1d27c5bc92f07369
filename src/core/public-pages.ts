/**
 * Which of the site's pages are for everyone and which are not, for the server and the browser build
 * alike. The public pages are rendered to HTML at build time (docs/decisions/015; web/public-pages.ts adds
 * each one's code, scripts/prerender.mjs writes `file` into dist/web, where the static files are
 * found as `<path>.html`); sitemap.xml lists those with `sitemap` and robots.txt keeps crawlers out of
 * the private screens (features/seo). web/public-pages.ts also makes every route of the SPA one or the
 * other, so a new screen cannot be left out of both lists.
 */
export const PUBLIC_PAGES = [
  { path: '/', file: 'index.html', sitemap: true },
  { path: '/faq', file: 'faq.html', sitemap: true },
  { path: '/bestelinformatie', file: 'bestelinformatie.html', sitemap: true },
  { path: '/privacy', file: 'privacy.html', sitemap: true },
  { path: '/contact', file: 'contact.html', sitemap: true },
  // Not one of the five info pages, but public and often opened on a phone: it starts as HTML too.
  // Crawlers may read it; the sitemap offers only the info pages.
  { path: '/order', file: 'order.html', sitemap: false },
  // The customer's order page: this one file answers every /bestelling/<token>, and the browser reads the
  // token from the address (docs/decisions/067). Private to its customer: robots.txt keeps crawlers out.
  { path: '/bestelling', file: 'bestelling.html', sitemap: false },
  // A seller's own order form: this one file answers every /bestellen/<seller_token>, and the browser reads
  // the token from the address (docs/decisions/070). Handed to customers, not to crawlers.
  { path: '/bestellen', file: 'bestellen.html', sitemap: false },
] as const;

export type PublicPath = (typeof PUBLIC_PAGES)[number]['path'];

/**
 * The screens crawlers have no business with (each with everything below it): signing in, the account, the
 * back-office, a customer's order page, a seller's order form, a club's sign-up and its link (docs/decisions/073).
 */
export const PRIVATE_SCREENS = [
  '/admin',
  '/account',
  '/protected',
  '/login',
  '/register',
  '/forgot-password',
  '/reset-password',
  '/maintenance',
  '/bestelling',
  '/bestellen',
  '/aanmelden',
  '/clubs',
] as const;

export type PrivateScreen = (typeof PRIVATE_SCREENS)[number];
