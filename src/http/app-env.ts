import type { Context } from 'hono';
import type { RequestCtx } from '../context';

/** What the app keeps per request: its id, and its context once built (request-ctx.ts). */
export interface AppEnv {
  Variables: {
    requestId: string;
    requestCtx: Promise<RequestCtx> | undefined;
  };
}

export type AppContext = Context<AppEnv>;
