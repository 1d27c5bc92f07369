/**
 * The paths the server answers itself, never the SPA (one list for the app's fallback, the dev
 * server's proxy and robots.txt). The REST surface (docs/architecture.md §4) sits under API_BASE_PATH; a root
 * with `exact` is also a path of its own (`GET /orders`), one without owns only what lies below it
 * (`/contact/send` is the server's, `/contact` is a public page).
 */
export const REST_ROOTS = [
  { root: '/api', exact: false },
  { root: '/tablers', exact: true },
  { root: '/orders', exact: true },
  { root: '/contact', exact: false },
] as const;

/** tRPC, at the site's root whatever API_BASE_PATH says. */
export const TRPC_ROOT = '/trpc';

/** Files the server writes for crawlers (features/seo). */
export const SERVER_FILES = ['/robots.txt', '/sitemap.xml'] as const;

/** Whether `path` belongs to the server, with the REST surface mounted at `base` ('' or e.g. '/backend'). */
export function isServerPath(path: string, base: string): boolean {
  if (path.startsWith(`${TRPC_ROOT}/`)) return true;
  return REST_ROOTS.some(({ root, exact }) => path.startsWith(`${base}${root}/`) || (exact && path === `${base}${root}`));
}
