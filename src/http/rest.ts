import type { MiddlewareHandler } from 'hono';
import { requireAdmin, requireManagement } from '../features/auth/permissions';
import { Hono } from 'hono';
import type { RequestCtx } from '../context';
import type { AppContext, AppEnv } from './app-env';

/** What a feature's REST routes get from the app: the request's context. */
export type CtxOf = (c: AppContext) => Promise<RequestCtx>;

export function restRouter(): Hono<AppEnv> {
  return new Hono<AppEnv>();
}

/**
 * Paths (relative to the REST mount) where a GET changes state: the specification's deletes (docs/product.md §7)
 * and the two-factor set-up, which stores a new secret (docs/decisions/030). app.ts guards them like a POST.
 */
export const STATE_CHANGING_GET_PATHS = ['/api/users/deleteuser', '/api/groups/deletegroup', '/api/permissions/delete', '/api/twofactor/setup'];

/**
 * Route guard that answers 401/403 before the body is read, like tRPC's admin tier does.
 * The services check again: the guard only fixes the order of refusals.
 */
export function adminOnly(ctxOf: CtxOf): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    requireAdmin(await ctxOf(c));
    await next();
  };
}

/** Like adminOnly, for the campaign's back-office calls (management.access or admin.access). */
export function managementOnly(ctxOf: CtxOf): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    requireManagement(await ctxOf(c));
    await next();
  };
}

/** A stored file sent as a download: its length known, kept by no cache (documents, APKs and backups are private or versioned). */
export function attachmentResponse(body: unknown, file: { contentType: string; size: number; filename: string }): Response {
  return new Response(body as BodyInit, {
    headers: {
      'Content-Type': file.contentType,
      'Content-Length': String(file.size),
      'Content-Disposition': `attachment; filename="${file.filename}"`,
      'Cache-Control': 'no-store',
    },
  });
}
