/**
 * tRPC plumbing: the context is the same RequestCtx the REST routes use; procedures come in three
 * tiers (public, signed in, admin). Errors are mapped here, once: an AppError keeps its status and
 * exact text, a zod failure becomes a readable 400, anything else a generic 500 (logged).
 */
import { initTRPC, TRPCError } from '@trpc/server';
import { ZodError } from 'zod';
import type { RequestCtx } from '../context';
import { requireAdmin, requireManagement, requireUser } from '../features/auth/permissions';
import { AppError, type ErrorCode, type ErrorStatus } from '../core/errors';
import { inputRefused } from '../http/validate';

const CODE_BY_STATUS: Record<ErrorStatus, TRPCError['code']> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_SUPPORTED',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'UNPROCESSABLE_CONTENT',
  429: 'TOO_MANY_REQUESTS',
  500: 'INTERNAL_SERVER_ERROR',
  502: 'BAD_GATEWAY',
  503: 'SERVICE_UNAVAILABLE',
};

/** Our code for a failure tRPC itself raised (an unknown procedure, a GET of a mutation, a broken batch). */
const CODE_OF_TRPC: Partial<Record<TRPCError['code'], ErrorCode>> = {
  PARSE_ERROR: 'MALFORMED_JSON',
  BAD_REQUEST: 'INVALID_INPUT',
  UNAUTHORIZED: 'NOT_LOGGED_IN',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  METHOD_NOT_SUPPORTED: 'METHOD_NOT_ALLOWED',
  PAYLOAD_TOO_LARGE: 'BODY_TOO_LARGE',
  UNSUPPORTED_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  TOO_MANY_REQUESTS: 'TOO_MANY_REQUESTS',
};

/** The refusal a tRPC error stands for: `error.data.code` is ours, as on the REST surface (docs/decisions/062). */
function refusalOf(error: TRPCError): AppError {
  const cause = error.cause;
  if (cause instanceof AppError) return cause;
  if (cause instanceof ZodError) return inputRefused(cause);
  if (cause instanceof SyntaxError) return new AppError('MALFORMED_JSON', 'Malformed JSON body');
  const code = CODE_OF_TRPC[error.code];
  return code ? new AppError(code, error.message) : new AppError('SERVER_ERROR', 'Server error');
}

const t = initTRPC.context<RequestCtx>().create({
  errorFormatter({ shape, error }) {
    const refusal = refusalOf(error);
    return { ...shape, message: refusal.message, data: { ...refusal.extra, code: refusal.code, httpStatus: shape.data.httpStatus } };
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
