/**
 * How long a browser may keep a file of the built site (docs/decisions/016), one rule for both runtimes: app.ts puts it
 * on whatever Node's file server or the Worker's assets binding answered.
 * - Pages (the prerendered ones and the SPA's shell) are revalidated on every use (`no-cache`, answered
 *   304 while the ETag matches), so a deploy shows at once. Checked first: the shell is also what a page
 *   route under /assets/ gets.
 * - Vite names everything under /assets/ by its content hash: a changed file gets a new name, so the old
 *   one may be kept for a year without asking.
 * - The member app's service worker (docs/decisions/069) keeps its name and holds the list of the files it keeps
 *   offline: revalidated on every check like a page, so a deploy reaches the phones at their next visit.
 * - Other files (favicon, images in web/public) keep their names across deploys: an hour, then revalidated.
 */
const SERVICE_WORKERS = new Set(['/order-sw.js']);

export function assetCacheControl(path: string, contentType: string | null): string {
  if (contentType?.startsWith('text/html') || SERVICE_WORKERS.has(path)) return 'no-cache';
  if (path.startsWith('/assets/')) return 'public, max-age=31536000, immutable';
  return 'public, max-age=3600';
}
