/**
 * tRPC plumbing: the context is the same RequestCtx the REST routes use; procedures come in three
 * tiers (public, signed in, admin). Errors are mapped here, once: an AppError keeps its status and
 * exact text, a zod failure becomes a readable 400, anything else a generic 500 (logged).
 */
import { initTRPC, TRPCError } from '@trpc/server';
import { ZodError } from 'zod';
import type { RequestCtx } from '../context';
import { requireAdmin, requireManagement, requireUser } from '../features/auth/permissions';
import { AppError, type ErrorStatus } from '../core/errors';
import { firstIssueMessage } from '../http/validate';

const CODE_BY_STATUS: Record<ErrorStatus, TRPCError['code']> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'TOO_MANY_REQUESTS',
  500: 'INTERNAL_SERVER_ERROR',
  503: 'SERVICE_UNAVAILABLE',
};

const t = initTRPC.context<RequestCtx>().create({
  errorFormatter({ shape, error }) {
    let message = shape.message;
    if (error.cause instanceof ZodError) message = firstIssueMessage(error.cause);
    else if (error.cause instanceof SyntaxError) message = 'Malformed JSON body';
    else if (error.code === 'INTERNAL_SERVER_ERROR' && !(error.cause instanceof AppError)) message = 'Server error';
    return { ...shape, message, data: { code: shape.data.code, httpStatus: shape.data.httpStatus } };
  },
});

/** Turns service errors into TRPCErrors with the right code, keeping the user-facing text. */
const mapErrors = t.middleware(async ({ ctx, next, path }) => {
  const result = await next();
  if (!result.ok) {
    const cause = result.error.cause;
    if (cause instanceof AppError) throw new TRPCError({ code: CODE_BY_STATUS[cause.status], message: cause.message, cause });
    if (result.error.code === 'INTERNAL_SERVER_ERROR') {
      ctx.log.error('Unexpected error', { requestId: ctx.requestId, path, error: String(cause?.stack ?? result.error.message) });
    }
  }
  return result;
});

export const router = t.router;
export const publicProcedure = t.procedure.use(mapErrors);
export const userProcedure = publicProcedure.use(({ ctx, next }) => next({ ctx: { ...ctx, user: requireUser(ctx) } }));
export const adminProcedure = publicProcedure.use(({ ctx, next }) => next({ ctx: { ...ctx, user: requireAdmin(ctx) } }));
export const managementProcedure = publicProcedure.use(({ ctx, next }) => next({ ctx: { ...ctx, user: requireManagement(ctx) } }));
