import { expect } from 'vitest';
import { ERROR_STATUS, type ErrorCode } from '../../src/core/error-codes';
import { SECURE_SESSION_COOKIE, SESSION_COOKIE } from '../../src/features/auth/session';
import type { TestApp } from './test-app';

/**
 * The plumbing of the API tests that run each case twice: over REST and over its tRPC twin. A test
 * file names its operations, gives a REST route and a tRPC procedure for each, and gets two
 * transports with one call shape; `expectFailure` knows each transport's error shape.
 */

export interface CallInit {
  body?: unknown;
  /** Sent as it is instead of `body` (for malformed JSON). */
  rawBody?: string;
  cookie?: string | undefined;
  headers?: Record<string, string>;
  /** The client address the app sees (x-test-client-ip); the transport's default when absent. */
  ip?: string;
  /** `?id=` of a REST route marked 'id', the `id` input of a tRPC procedure marked 'id'; left out when undefined. */
  id?: unknown;
}

export interface Answer {
  status: number;
  /** The whole JSON answer. */
  // biome-ignore lint/suspicious/noExplicitAny: every operation answers its own shape; the tests read it freely and assert on it
  json: any;
  /** The success payload: the REST body, or tRPC's result.data. */
  // biome-ignore lint/suspicious/noExplicitAny: the payload has the operation's own shape, as json does
  data: any;
  setCookies: string[];
  headers: Headers;
}

export type TransportName = 'REST' | 'tRPC';

export interface Transport<Op extends string> {
  name: TransportName;
  /** Prefix of the names a transport's tests create ('r' or 't'), so the two runs never collide. */
  p: string;
  call(op: Op, init?: CallInit): Promise<Answer>;
}

/** GET sends no body, POST sends `body` (or {}); 'id' appends `?id=`. */
export type RestRoute = readonly [method: 'GET' | 'POST', path: string, id?: 'id'];

/** `/trpc/<router>.<op>`: a query is a GET with any input in `?input=`, a mutation POSTs its input (or {}); 'id' puts `id` into the input. */
export type TrpcRoute = readonly [kind: 'query' | 'mutation', procedure: string, id?: 'id'];

export interface Routes<Op extends string> {
  rest: Record<Op, RestRoute>;
  trpc: Record<Op, TrpcRoute>;
}

export interface TransportOptions {
  /** The client address of a call that names none; without it the app sees 127.0.0.1. */
  ip?: () => string;
}

/** The REST and the tRPC transport over the app `app()` returns at call time (apps are made in hooks). */
export function transports<Op extends string>(
  app: () => TestApp,
  routes: Routes<Op>,
  options: TransportOptions = {},
): [rest: Transport<Op>, trpc: Transport<Op>] {
  async function send(method: 'GET' | 'POST', path: string, init: CallInit, body: unknown): Promise<Answer> {
    const ip = init.ip ?? options.ip?.();
    const r = await app().request(path, {
      method,
      ...(init.rawBody !== undefined ? { rawBody: init.rawBody } : body !== undefined ? { body } : {}),
      ...(init.cookie ? { cookie: init.cookie } : {}),
      headers: { ...(ip ? { 'x-test-client-ip': ip } : {}), ...init.headers },
    });
    return { status: r.status, json: r.json, data: r.json, setCookies: r.headers.getSetCookie(), headers: r.headers };
  }

  const rest: Transport<Op> = {
    name: 'REST',
    p: 'r',
    call(op, init = {}) {
      const [method, path, id] = routes.rest[op];
      return send(method, `${path}${id ? idQuery(init.id) : ''}`, init, method === 'POST' ? (init.body ?? {}) : undefined);
    },
  };

  const trpc: Transport<Op> = {
    name: 'tRPC',
    p: 't',
    async call(op, init = {}) {
      const [kind, procedure, id] = routes.trpc[op];
      const input = id ? idInput(init) : init.body;
      const answer =
        kind === 'query'
          ? await send('GET', `/trpc/${procedure}${input !== undefined ? `?input=${encodeURIComponent(JSON.stringify(input))}` : ''}`, init, undefined)
          : await send('POST', `/trpc/${procedure}`, init, input ?? {});
      return { ...answer, data: answer.json?.result?.data };
    },
  };

  return [rest, trpc];
}

const idQuery = (id: unknown) => (id === undefined ? '' : `?id=${encodeURIComponent(String(id))}`);

/** `{id}` merged before the body; undefined when there is neither. */
function idInput({ id, body }: CallInit): unknown {
  const idPart = id === undefined ? undefined : { id };
  return body === undefined ? idPart : { ...idPart, ...(body as object) };
}

/**
 * Asserts a refusal with its exact status and text, in the transport's own error shape, carrying a code of the
 * catalogue whose status it is (docs/decisions/062) — `code` itself when given.
 */
export function expectFailure(tr: { name: TransportName }, answer: Answer, status: number, message: string, code?: ErrorCode) {
  expect(answer.status).toBe(status);
  const refusal = tr.name === 'REST' ? answer.json : { success: false, error: answer.json?.error?.message, ...answer.json?.error?.data };
  expect(refusal).toMatchObject({ success: false, error: message });
  if (tr.name === 'tRPC') expect(refusal.httpStatus).toBe(status);
  expect(ERROR_STATUS[refusal.code as ErrorCode]).toBe(status);
  if (code !== undefined) expect(refusal.code).toBe(code);
}

/** A source of client addresses (`address(high, low)` of a rising counter) that no other call of the file uses, so per-address rate limits never leak between tests. */
export function freshIps(address: (high: number, low: number) => string): () => string {
  let counter = 0;
  return () => {
    counter++;
    return address(Math.floor(counter / 250), counter % 250);
  };
}

/** The session cookie a response sets (either name: plain http or `__Host-` over https), as `name=value` for the next request. */
export function sessionCookieOf(answer: Answer): string {
  const line = answer.setCookies.find((c) => c.startsWith(`${SESSION_COOKIE}=`) || c.startsWith(`${SECURE_SESSION_COOKIE}=`));
  expect(line, 'a session cookie').toBeDefined();
  return line!.split(';')[0]!;
}
