import type { MiddlewareHandler } from 'hono';
import type { AppDeps } from '../context';
import type { AppEnv } from './request-ctx';

/** DESIGN §3: only the site itself may load anything; nobody may frame it. */
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

export function securityHeaders(deps: AppDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    // Responses from fetch() or the assets binding have immutable headers: copy before changing.
    let res = c.res;
    try {
      res.headers.set('X-Content-Type-Options', 'nosniff');
    } catch {
      res = new Response(res.body, res);
      c.res = res;
      res.headers.set('X-Content-Type-Options', 'nosniff');
    }
    res.headers.set('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    res.headers.set('Referrer-Policy', 'strict-origin-when-cross-origin');
    res.headers.set('X-Frame-Options', 'DENY');
    res.headers.set('Cross-Origin-Opener-Policy', 'same-origin');
    res.headers.set('Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=()');
    const https = deps.config.publicUrl ? deps.config.publicUrl.startsWith('https:') : new URL(c.req.url).protocol === 'https:';
    if (https) res.headers.set('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
  };
}

const STATE_CHANGING_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * DESIGN §3: a state-changing request (every POST, and the specification's GET deletes) is refused
 * when its Origin or Sec-Fetch-Site shows another site.
 */
export function crossSiteGuard(deps: AppDeps, isGetDelete: (path: string) => boolean): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const method = c.req.method.toUpperCase();
    if (STATE_CHANGING_METHODS.has(method) || (method === 'GET' && isGetDelete(c.req.path))) {
      const fetchSite = c.req.header('sec-fetch-site');
      const origin = c.req.header('origin');
      const own = new Set([new URL(c.req.url).origin]);
      if (deps.config.publicUrl) own.add(new URL(deps.config.publicUrl).origin);
      const crossSite = (fetchSite !== undefined && fetchSite !== 'same-origin' && fetchSite !== 'none') || (origin !== undefined && !own.has(origin));
      if (crossSite) return c.json({ success: false, error: 'Cross-site request refused' }, 403);
    }
    await next();
  };
}
