import type { MiddlewareHandler } from 'hono';
import type { AppDeps } from '../context';
import { refusalBody } from '../core/errors';
import type { AppEnv } from './app-env';

/** docs/architecture.md §3: only the site itself may load anything; nobody may frame it. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * docs/decisions/055: none of these is used by the site (the address search asks the server, not the
 * browser's location), so no page, nor anything it might be made to load, may ask for them.
 */
export const PERMISSIONS_POLICY = [
  'accelerometer=()',
  'camera=()',
  'display-capture=()',
  'geolocation=()',
  'gyroscope=()',
  'hid=()',
  'magnetometer=()',
  'microphone=()',
  'midi=()',
  'payment=()',
  'serial=()',
  'usb=()',
].join(', ');

/**
 * Gives each request its id, and every response the security headers (docs/architecture.md §3) and X-Request-Id. They are prepared before the
 * handler runs, so responses built with c.json/c.body carry them at no extra cost; a raw Response
 * (assets, errors from elsewhere) gets them copied on afterwards.
 */
export function responseHeaders(deps: AppDeps): MiddlewareHandler<AppEnv> {
  const common: [string, string][] = [
    ['Content-Security-Policy', CONTENT_SECURITY_POLICY],
    ['X-Content-Type-Options', 'nosniff'],
    ['Referrer-Policy', 'strict-origin-when-cross-origin'],
    // docs/decisions/055: no other site's window keeps a handle on ours, and no other site loads our answers
    // as its images or scripts (the app's APK download is a navigation or a plain HTTP client, not affected).
    ['Cross-Origin-Opener-Policy', 'same-origin'],
    ['Cross-Origin-Resource-Policy', 'same-origin'],
    ['Permissions-Policy', PERMISSIONS_POLICY],
  ];
  const hsts: [string, string] = ['Strict-Transport-Security', 'max-age=31536000; includeSubDomains'];
  const publicHttps = deps.config.publicUrl ? deps.config.publicUrl.startsWith('https:') : null;
  const withHsts = [...common, hsts];
  return async (c, next) => {
    // A caller's own request id (e.g. from a proxy) is kept when it is plain; otherwise a new one.
    const requestId =
      c.req
        .header('x-request-id')
        ?.slice(0, 64)
        .replace(/[^\w.-]/g, '') || crypto.randomUUID();
    c.set('requestId', requestId);
    const headers = (publicHttps ?? c.req.url.startsWith('https:')) ? withHsts : common;
    for (const [name, value] of headers) c.header(name, value);
    c.header('X-Request-Id', requestId);
    await next();
    if (!c.res.headers.has('Content-Security-Policy')) {
      // Responses from fetch() or the assets binding have immutable headers: copy before changing.
      const res = new Response(c.res.body, c.res);
      for (const [name, value] of headers) res.headers.set(name, value);
      res.headers.set('X-Request-Id', requestId);
      c.res = res;
    }
  };
}

export const STATE_CHANGING_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'];

/** The host name of an origin, or null when it is not a URL. */
function hostOf(origin: string): string | null {
  try {
    return new URL(origin).hostname;
  } catch {
    return null;
  }
}

/** The origin of a Referer header, or null when it is not a URL. */
function refererOrigin(referer: string): string | null {
  try {
    return new URL(referer).origin;
  } catch {
    return null;
  }
}

/**
 * docs/architecture.md §3: a state-changing request (every POST, the specification's GET deletes, the two-factor
 * set-up) is refused when its Origin or Sec-Fetch-Site shows another site. Browsers too old to send
 * either still send a Referer: another site's is refused as well (docs/decisions/030). A request with no
 * browser signal at all is an API client and passes. The app mounts the guard on exactly those
 * requests, so plain reads pay nothing for it.
 */
export function crossSiteGuard(deps: AppDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const fetchSite = c.req.header('sec-fetch-site');
    const origin = c.req.header('origin');
    const referer = fetchSite === undefined && origin === undefined ? c.req.header('referer') : undefined;
    // docs/decisions/071: an Origin naming any host of the request's club is its own.
    const clubHosts = deps.clubs.hostsOf(c.get('club'));
    const ownOrigin = (o: string | null) => o !== null && (o === new URL(c.req.url).origin || (hostOf(o) !== null && clubHosts.includes(hostOf(o)!)));
    const crossSite =
      (fetchSite !== undefined && fetchSite !== 'same-origin' && fetchSite !== 'none') ||
      (origin !== undefined && !ownOrigin(origin)) ||
      (referer !== undefined && !ownOrigin(refererOrigin(referer)));
    if (crossSite) return c.json(refusalBody('CROSS_SITE_REFUSED', 'Cross-site request refused'), 403);
    await next();
  };
}
