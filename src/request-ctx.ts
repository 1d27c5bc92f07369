import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { AppDeps, RequestCtx } from './context';
import { clubDeps } from './club-deps';
import { platformOps } from './features/clubs/clubs.service';
import { needsTwoFactorSetup } from './features/auth/admin-two-factor';
import { sessionCookieName, sessionCookieOptions, validateSessionToken } from './features/auth/session';
import { getBooleanSetting, getIntegerSetting } from './features/settings/settings.service';
import type { AppContext } from './http/app-env';
import { rateLimitAddress } from './platform/client-address';

function isSecureRequest(c: AppContext, deps: AppDeps): boolean {
  if (deps.config.publicUrl) return deps.config.publicUrl.startsWith('https:');
  return c.req.url.startsWith('https:');
}

/**
 * Builds the request's context once, on first use, so static files never touch the database.
 * Reads the session cookie and re-sends it when the sliding expiry moved.
 */
export function getRequestCtx(c: AppContext, deps: AppDeps, clientIp: (c: AppContext) => string): Promise<RequestCtx> {
  let pending = c.get('requestCtx');
  if (!pending) {
    pending = (async () => {
      const secure = isSecureRequest(c, deps);
      const ip = clientIp(c);
      const cookieName = sessionCookieName(secure);
      const cookies = {
        set: (token: string, expiresAt: number) => setCookie(c, cookieName, token, sessionCookieOptions(secure, expiresAt)),
        clear: () => deleteCookie(c, cookieName, { path: '/', secure, httpOnly: true, sameSite: 'Lax' }),
      };
      const ctx: RequestCtx = {
        // The club the Host named (app.ts): its handle and its origin (docs/decisions/054, 071).
        ...clubDeps(deps, c.get('club')),
        requestId: c.get('requestId'),
        ip,
        rateLimitAddress: rateLimitAddress(ip),
        userAgent: (c.req.header('user-agent') ?? '').slice(0, 512),
        secure,
        session: null,
        user: null,
        twoFactorSetupRequired: false,
        cookies,
        platform: platformOpsOf(deps),
        background: (work) => runInBackground(c, work),
      };
      const token = getCookie(c, cookieName);
      if (token) {
        const maxAgeDays = () => getIntegerSetting(ctx, 'session_max_age_days');
        const validated = await validateSessionToken(ctx.db, deps.clock, token, maxAgeDays);
        if (validated) {
          ctx.session = validated.session;
          ctx.user = validated.user;
          // From the profile's two-factor flag and the settings cache the session read just filled: no query.
          ctx.twoFactorSetupRequired = await needsTwoFactorSetup(validated.user, () => getBooleanSetting(ctx, 'require_2fa_for_admins'));
          if (validated.renewed) cookies.set(token, validated.session.expiresAt);
        } else {
          // An ended or unknown session: tell the browser to forget its cookie.
          cookies.clear();
        }
      }
      return ctx;
    })();
    c.set('requestCtx', pending);
  }
  return pending;
}

const opsByDeps = new WeakMap<AppDeps, ReturnType<typeof platformOps>>();

/** One set of platform operations per app, made at its first request. */
function platformOpsOf(deps: AppDeps) {
  let ops = opsByDeps.get(deps);
  if (!ops) {
    ops = platformOps(deps);
    opsByDeps.set(deps, ops);
  }
  return ops;
}

/** The Worker's waitUntil when the request has an execution context (workerd); on Node the promise runs on. */
function runInBackground(c: AppContext, work: Promise<unknown>): void {
  let executionCtx: { waitUntil(promise: Promise<unknown>): void } | undefined;
  try {
    executionCtx = c.executionCtx;
  } catch {
    // Hono throws when there is no execution context (Node, app.request in tests).
    executionCtx = undefined;
  }
  executionCtx?.waitUntil(work);
}
