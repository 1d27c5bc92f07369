import type { Context } from 'hono';
import type { RequestCtx } from '../context';
import type { Club } from '../platform/club-directory';

/** What the app keeps per request: its id, and its context once built (request-ctx.ts). */
export interface AppEnv {
  Variables: {
    requestId: string;
    requestCtx: Promise<RequestCtx> | undefined;
    /** The club the request's host names (docs/decisions/071), set before any route runs. */
    club: Club;
  };
}

export type AppContext = Context<AppEnv>;
