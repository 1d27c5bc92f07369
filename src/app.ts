import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { Hono } from 'hono';
import type { AppDeps } from './context';
import { isServerPath } from './core/server-paths';
import { accountRoutes } from './features/account/account.routes';
import { auditRoutes } from './features/audit/audit.routes';
import { backupsRoutes } from './features/backups/backups.routes';
import { clubsRoutes } from './features/clubs/clubs.routes';
import { contactRoutes } from './features/contact/contact.routes';
import { deliveryRoutes } from './features/delivery/delivery.routes';
import { geocodeRoutes } from './features/geocode/geocode.routes';
import { healthRoutes } from './features/health/health.routes';
import { ordersRoutes } from './features/orders/orders.routes';
import { ordersCsvRoutes } from './features/orders/orders-csv.routes';
import { booksRoutes } from './features/books/books.routes';
import { INVOICE_MAIL_KIND, markInvoiceDelivered } from './features/invoices/invoice-delivered';
import { todaysPricing } from './features/invoices/order-pricing';
import { priceOrdersWith } from './features/orders/order-pricing-source';
import { invoicesRoutes } from './features/invoices/invoices.routes';
import { paymentsRoutes } from './features/payments/payments.routes';
import { onlinePaymentsRoutes } from './features/online-payments/online-payments.routes';
import { isOrderPagePath, ORDER_PAGE_PATH } from './features/orders/order-links';
import { onMailDelivered } from './features/mail/mail-delivery';
import { forgetDeliveredResetLinks, PASSWORD_RESET_MAIL_KIND } from './features/account/password-reset.service';
import { mailRoutes } from './features/mail/mail.routes';
import { isSellerPagePath, SELLER_PAGE_PATH } from './features/tablers/seller-link';
import { tablersRoutes } from './features/tablers/tablers.routes';
import { groupsRoutes } from './features/groups/groups.routes';
import { permissionsRoutes } from './features/permissions/permissions.routes';
import { settingsRoutes } from './features/settings/settings.routes';
import { twoFactorRoutes } from './features/two-factor/two-factor.routes';
import { usersRoutes } from './features/users/users.routes';
import { versionsRoutes } from './features/versions/versions.routes';
import { assetCacheControl } from './http/asset-caching';
import { AppError, refusalBody } from './core/errors';
import type { AppContext, AppEnv } from './http/app-env';
import { getRequestCtx } from './request-ctx';
import { STATE_CHANGING_GET_PATHS, CROSS_SITE_FREE_PATHS } from './http/rest';
import { openApiRoutes } from './http/openapi-routes';
import { crossSiteGuard, responseHeaders, STATE_CHANGING_METHODS } from './http/security';
import { readLimitedText } from './http/validate';
import { resolveClub } from './http/club-pages';
import { appRouter } from './app-router';
import { seoRoutes } from './features/seo/seo.routes';

export interface CreateAppOptions {
  /** The client's address: the socket's on Node, CF-Connecting-IP on the Worker. */
  clientIp: (c: AppContext) => string;
}

/**
 * A browser asking for a page (not a missing script, image or file). A seller's page is one although its
 * token has dots (docs/decisions/070): its path is checked whole.
 */
function wantsPage(request: Request): boolean {
  const path = new URL(request.url).pathname;
  const last = path.split('/').pop() ?? '';
  return (request.headers.get('accept') ?? '').includes('text/html') && (!last.includes('.') || isSellerPagePath(path));
}

/** The prerendered file that answers a page with a token in its path, else the SPA's shell. */
function pageFileFor(path: string): string {
  // The customer's order page is one prerendered file for every /bestelling/<token> (docs/decisions/067),
  // and a seller's order form one for every /bestellen/<seller_token> (docs/decisions/070).
  if (isOrderPagePath(path)) return ORDER_PAGE_PATH.slice(0, -1);
  if (isSellerPagePath(path)) return SELLER_PAGE_PATH.slice(0, -1);
  return '/app';
}

/**
 * The whole site as one Hono app, for both runtimes (docs/architecture.md §1): security middleware, tRPC at /trpc,
 * the REST surface of docs/architecture.md §4 under API_BASE_PATH, and the SPA's files with the app.html shell for its other routes.
 */
export function createApp(deps: AppDeps, options: CreateAppOptions): Hono<AppEnv> {
  const base = deps.config.apiBasePath;
  const app = new Hono<AppEnv>();
  const ctxOf = (c: AppContext) => getRequestCtx(c, deps, options.clientIp);
  // What a delivered mail confirms, per kind: the outbox itself knows no feature.
  onMailDelivered(INVOICE_MAIL_KIND, markInvoiceDelivered);
  onMailDelivered(PASSWORD_RESET_MAIL_KIND, forgetDeliveredResetLinks);
  // Orders price what is not yet invoiced as the invoice will (orders/ may not import invoices/).
  priceOrdersWith(todaysPricing);

  app.use('*', responseHeaders(deps));
  // Before the start-up work below: a monitor hears 503 when the database is down, not that work's 500.
  app.route(base, healthRoutes(deps));
  if (deps.ready) {
    const ready = deps.ready;
    app.use('*', async (_c, next) => {
      await ready();
      await next();
    });
  }
  app.use('*', resolveClub(deps));
  const guard = crossSiteGuard(deps);
  const unguarded = new Set(CROSS_SITE_FREE_PATHS.map((path) => `${base}${path}`));
  app.on(STATE_CHANGING_METHODS, '*', (c, next) => (unguarded.has(c.req.path) ? next() : guard(c, next)));
  for (const path of STATE_CHANGING_GET_PATHS) {
    // Hono answers HEAD with the GET handler: a HEAD must never change anything.
    app.get(
      `${base}${path}`,
      async (c, next) => (c.req.raw.method === 'HEAD' ? c.json(refusalBody('METHOD_NOT_ALLOWED', 'Method not allowed'), 405) : next()),
      guard,
    );
  }

  app.all('/trpc/*', async (c) => {
    const ctx = await ctxOf(c);
    // The same body limit as the REST surface, counted in bytes before tRPC buffers anything.
    let req = c.req.raw;
    if (req.method === 'POST') {
      let body: string;
      try {
        body = await readLimitedText(req);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        const data = { code: error.code, httpStatus: error.status };
        return c.json({ error: { message: error.message, code: -32600, data } }, error.status);
      }
      req = new Request(req.url, { method: 'POST', headers: req.headers, body });
    }
    const res = await fetchRequestHandler({
      endpoint: '/trpc',
      req,
      router: appRouter,
      createContext: () => ctx,
      responseMeta: () => ({ headers: new Headers({ 'Cache-Control': 'no-store' }) }),
    });
    // newResponse keeps headers already set on the context, such as a renewed session cookie.
    return c.newResponse(res.body, res);
  });

  app.route(base, settingsRoutes(ctxOf));
  app.route(base, accountRoutes(ctxOf));
  app.route(base, twoFactorRoutes(ctxOf));
  app.route(base, usersRoutes(ctxOf));
  app.route(base, groupsRoutes(ctxOf));
  app.route(base, permissionsRoutes(ctxOf));
  app.route(base, versionsRoutes(ctxOf));
  app.route(base, tablersRoutes(ctxOf));
  app.route(base, ordersRoutes(ctxOf));
  app.route(base, ordersCsvRoutes(ctxOf));
  app.route(base, booksRoutes(ctxOf));
  app.route(base, invoicesRoutes(ctxOf));
  app.route(base, paymentsRoutes(ctxOf));
  app.route(base, onlinePaymentsRoutes(ctxOf));
  app.route(base, deliveryRoutes(ctxOf));
  app.route(base, mailRoutes(ctxOf));
  app.route(base, auditRoutes(ctxOf));
  app.route(base, backupsRoutes(ctxOf));
  app.route(base, contactRoutes(ctxOf));
  app.route(base, geocodeRoutes(ctxOf));
  app.route(base, clubsRoutes(ctxOf));
  // Read on the first request, when every route above is in place.
  app.route(
    base,
    openApiRoutes(() => app.routes, base),
  );
  app.route('/', seoRoutes(deps));

  app.onError((error, c) => {
    if (error instanceof AppError) {
      return c.json(refusalBody(error.code, error.message, error.extra), error.status);
    }
    deps.log.error('Unexpected error', {
      requestId: c.get('requestId'),
      method: c.req.method,
      path: c.req.path,
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    });
    return c.json(refusalBody('SERVER_ERROR', 'Server error'), 500);
  });

  app.notFound(async (c) => {
    if (isServerPath(c.req.path, base) || !deps.assets || !['GET', 'HEAD'].includes(c.req.method)) {
      return c.json(refusalBody('NOT_FOUND', 'Not found'), 404);
    }
    let response = await deps.assets(c.req.raw);
    if (response.status === 404 && wantsPage(c.req.raw)) {
      // Any other route of the SPA gets the empty shell (the build's app.html); the router then shows
      // the screen, or its 'Page Not Found'. The five public pages are files of their own (prerendered).
      const file = pageFileFor(c.req.path);
      const shell = new Request(new URL(file, c.req.url), { method: c.req.method, headers: c.req.raw.headers });
      response = await deps.assets(shell);
    }
    if (response.status !== 200 && response.status !== 304) return response;
    // Both runtimes' files get the same caching rule here, in place of Cloudflare's default (revalidate
    // everything). newResponse also adds the prepared security headers, so they need no second copy.
    const headers = new Headers(response.headers);
    headers.set('Cache-Control', assetCacheControl(c.req.path, headers.get('content-type')));
    return c.newResponse(response.body, { status: response.status, headers });
  });

  return app;
}
