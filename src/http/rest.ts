import type { MiddlewareHandler } from 'hono';
import type * as z from 'zod';
import { requireAdmin, requireManagement } from '../features/auth/permissions';
import { Hono } from 'hono';
import type { RequestCtx } from '../context';
import type { AppContext, AppEnv } from './app-env';
import { documented } from './openapi';
import { parseInput, readJsonBody } from './validate';

/** What a feature's REST routes get from the app: the request's context. */
export type CtxOf = (c: AppContext) => Promise<RequestCtx>;

export function restRouter(): Hono<AppEnv> {
  return new Hono<AppEnv>();
}

/**
 * Paths (relative to the REST mount) where a GET changes state: the specification's deletes (docs/product.md §7)
 * and the two-factor set-up, which stores a new secret (docs/decisions/030). app.ts guards them like a POST.
 */
/** Posts a provider sends from its servers, never a browser (Mollie's webhook, docs/decisions/066): no cross-site refusal. */
export const CROSS_SITE_FREE_PATHS = ['/api/payments/mollie/webhook'];

export const STATE_CHANGING_GET_PATHS = ['/api/users/deleteuser', '/api/groups/deletegroup', '/api/permissions/delete', '/api/twofactor/setup'];

/**
 * Route guard that answers 401/403 before the body is read, like tRPC's admin tier does.
 * The services check again: the guard only fixes the order of refusals.
 */
export function adminOnly(ctxOf: CtxOf): MiddlewareHandler<AppEnv> {
  return documented({ access: 'admin' }, async (c, next) => {
    requireAdmin(await ctxOf(c));
    await next();
  });
}

/** Like adminOnly, for the campaign's back-office calls (management.access or admin.access). */
export function managementOnly(ctxOf: CtxOf): MiddlewareHandler<AppEnv> {
  return documented({ access: 'mgmt' }, async (c, next) => {
    requireManagement(await ctxOf(c));
    await next();
  });
}

/**
 * The query string checked by `schema`, for the handler as `c.req.valid('query')`; a failure is parseInput's
 * 400. A repeated key counts with its first value, as `c.req.query()` reads it. (Hono's `validator` would
 * hand on a repeated key as a list, and costs the Worker bundle more: docs/decisions/061.)
 */
export function query<T extends z.ZodType>(
  schema: T,
): MiddlewareHandler<AppEnv, string, { in: { query: Record<string, string> }; out: { query: z.output<T> } }> {
  return documented({ query: schema }, async (c, next) => {
    c.req.addValidatedData('query', parseInput(schema, c.req.query()) as object);
    await next();
  });
}

/**
 * The JSON body checked by `schema` (`c.req.valid('json')`), read as readJsonBody reads it: empty → {},
 * another content type 415, too large 413, malformed 400. Hono's own JSON validator would read an empty
 * or non-JSON body differently (docs/decisions/061).
 */
export function jsonBody<T extends z.ZodType>(schema: T): MiddlewareHandler<AppEnv, string, { in: { json: z.input<T> }; out: { json: z.output<T> } }> {
  return documented({ body: schema }, async (c, next) => {
    c.req.addValidatedData('json', parseInput(schema, await readJsonBody(c.req.raw)) as object);
    await next();
  });
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
