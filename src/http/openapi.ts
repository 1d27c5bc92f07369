/**
 * The REST contract as a document (docs/decisions/061): each route says what it is beside its own code, the
 * validators that check its input carry their zod schemas, and `openApiDocument` reads them all back from the
 * app's routes and writes OpenAPI 3.1 with zod's own JSON Schema conversion. No route list is kept by hand.
 */
import type { MiddlewareHandler } from 'hono';
import type { RouterRoute } from 'hono/types';
import type * as z from 'zod';
import { ERROR_STATUS } from '../core/error-codes';
import { isServerPath, TRPC_ROOT } from '../core/server-paths';
import { SESSION_COOKIE } from '../features/auth/session';

/** Who may call: see docs/architecture.md §4 (mgmt: management.access or admin.access). */
export type Access = 'public' | 'signed in' | 'pending sign-in' | 'admin' | 'mgmt' | 'platform';

export interface RouteDoc {
  access?: Access;
  /** The main answer's JSON shape in the tables' notation, e.g. `{success:true,user?}` or `[{id,name}]`. */
  answer?: string;
  /** The content type of a file answer (a PDF, a CSV, an APK). */
  file?: string;
  query?: z.ZodType;
  body?: z.ZodType;
  /** The fields of a multipart/form-data upload. */
  form?: z.ZodType;
  /** The fields of an application/x-www-form-urlencoded body (Mollie's webhook). */
  urlencoded?: z.ZodType;
  /** Optional request headers the route reads, by name (the Idempotency-Key of POST /orders/create). */
  headers?: Record<string, z.ZodType>;
}

const ROUTE_DOC = Symbol('routeDoc');

type Documented = { [ROUTE_DOC]?: RouteDoc };

/** Tags a middleware with what it tells the document (a validator its schema, a guard who may call). */
export function documented<M extends object>(doc: RouteDoc, middleware: M): M {
  return Object.assign(middleware, { [ROUTE_DOC]: doc });
}

/**
 * A route's own description, as a middleware that only passes the request on. What the path, the guard and
 * the validators tell is not repeated here; no prose either, which would cost the Worker bundle (docs/decisions/061).
 */
export function describeRoute(doc: RouteDoc): MiddlewareHandler {
  return documented(doc, (_c, next) => next());
}

type JsonSchema = Record<string, unknown>;

function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  // What a client sends ('input'): a default makes a field optional, a transform documents what it accepts.
  // The schema's own method: its converter is in every bundle with zod already, z.toJSONSchema adds 1.6 KiB.
  const { $schema: _, ...json } = schema.toJSONSchema({ io: 'input', unrepresentable: 'any' });
  return json;
}

/**
 * The tables' shape notation as JSON Schema: `{a,b?:true,c:[{d}]}` names an object's fields (`?` optional,
 * a value after `:` its shape or a constant: true, false, a number), `[x]` a list of x, `x | y` either.
 */
export function shapeSchema(text: string): JsonSchema {
  let at = 0;
  const peek = () => {
    while (text[at] === ' ') at++;
    return text[at];
  };
  const take = (char: string) => {
    if (peek() !== char) throw new Error(`Shape '${text}': expected '${char}' at ${at}`);
    at++;
  };
  const word = () => {
    peek();
    const start = at;
    while (at < text.length && /[\w.-]/.test(text[at]!)) at++;
    return text.slice(start, at);
  };
  const object = (): JsonSchema => {
    take('{');
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    while (peek() !== '}') {
      const key = word();
      const optional = peek() === '?';
      if (optional) at++;
      let value: JsonSchema = {};
      if (peek() === ':') {
        at++;
        value = either();
      }
      properties[key] = value;
      if (!optional) required.push(key);
      if (peek() !== ',') break;
      at++;
    }
    take('}');
    return { type: 'object', properties, required };
  };
  const single = (): JsonSchema => {
    const next = peek();
    if (next === '{') return object();
    if (next === '[') {
      at++;
      const items = peek() === ']' ? {} : either();
      take(']');
      return { type: 'array', items };
    }
    const constant = word();
    return constant === '' ? {} : { const: JSON.parse(constant) as unknown };
  };
  const either = (): JsonSchema => {
    const options = [single()];
    while (peek() === '|') {
      at++;
      options.push(single());
    }
    return options.length === 1 ? options[0]! : { anyOf: options };
  };
  const schema = either();
  if (peek() !== undefined) throw new Error(`Shape '${text}': unexpected '${text.slice(at)}'`);
  return schema;
}

const FAILURE_TEXTS: Record<number, string> = {
  400: 'Invalid input: the first problem, in words',
  401: 'Not logged in',
  403: 'Forbidden (or refused as cross-site)',
  413: 'Request body too large',
  415: 'Content-Type must be application/json',
};

const failure = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Failure' } } } });

/** The paths of the REST surface (docs/architecture.md §4), without tRPC and the crawlers' files. */
export function isRestPath(path: string, base: string): boolean {
  return !path.includes('*') && !path.startsWith(`${TRPC_ROOT}/`) && isServerPath(path, base);
}

/** Every (method, path) of the REST surface among the app's routes, each with what its handlers tell. */
export function restOperations(routes: readonly RouterRoute[], base: string): Map<string, RouteDoc & { method: string; path: string }> {
  const operations = new Map<string, RouteDoc & { method: string; path: string }>();
  for (const route of routes) {
    if (route.method === 'ALL' || !isRestPath(route.path, base)) continue;
    const key = `${route.method} ${route.path}`;
    const doc = (route.handler as Documented)[ROUTE_DOC];
    operations.set(key, { ...operations.get(key), ...doc, method: route.method, path: route.path });
  }
  return operations;
}

function queryParameters(schema: z.ZodType) {
  const json = jsonSchemaOf(schema) as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, property]) => ({
    name,
    in: 'query',
    required: json.required?.includes(name) ?? false,
    schema: property,
  }));
}

/** The OpenAPI 3.1 document of the app's REST routes (paths as mounted, under `base`). */
export function openApiDocument(routes: readonly RouterRoute[], base: string, version: string): JsonSchema {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of restOperations(routes, base).values()) {
    const segments = op.path.slice(base.length).split('/');
    const guarded = op.access !== undefined && op.access !== 'public';
    const responses: Record<string, unknown> = {
      200: op.file
        ? { description: op.file, content: { [op.file]: { schema: { type: 'string', format: 'binary' } } } }
        : { description: op.answer ?? 'OK', content: { 'application/json': { schema: op.answer ? shapeSchema(op.answer) : {} } } },
    };
    const statuses = [
      ...(op.query || op.body || op.form || op.urlencoded || op.headers ? [400] : []),
      ...(guarded ? [401, 403] : []),
      ...(op.body ? [413, 415] : []),
    ];
    for (const status of statuses) responses[status] = failure(FAILURE_TEXTS[status]!);
    responses.default = failure('Any other refusal');
    const content = op.body
      ? { 'application/json': { schema: jsonSchemaOf(op.body) } }
      : op.form
        ? { 'multipart/form-data': { schema: jsonSchemaOf(op.form) } }
        : op.urlencoded
          ? { 'application/x-www-form-urlencoded': { schema: jsonSchemaOf(op.urlencoded) } }
          : null;
    // Hono's `:token` is OpenAPI's `{token}`, a required path parameter.
    const path = op.path.replace(/:(\w+)/g, '{$1}');
    const pathParameters = [...op.path.matchAll(/:(\w+)/g)].map(([, name]) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));
    const headerParameters = Object.entries(op.headers ?? {}).map(([name, schema]) => ({ name, in: 'header', required: false, schema: jsonSchemaOf(schema) }));
    const parameters = [...pathParameters, ...(op.query ? queryParameters(op.query) : []), ...headerParameters];
    paths[path] ??= {};
    paths[path]![op.method.toLowerCase()] = {
      tags: [segments[1] === 'api' ? segments[2] : segments[1]],
      'x-access': op.access,
      ...(guarded ? { security: [{ session: [] }] } : {}),
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(content ? { requestBody: { required: !!op.form || !!op.urlencoded, content } } : {}),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Kerstactie REST API',
      version,
      description:
        'JSON unless stated; an empty body reads as {}. Every failure answers {success:false,error,code}. x-access: who may call (mgmt: management.access or admin.access).',
    },
    paths,
    components: {
      schemas: {
        Failure: {
          type: 'object',
          properties: { success: { const: false }, error: { type: 'string' }, code: { type: 'string', enum: Object.keys(ERROR_STATUS) } },
          required: ['success', 'error', 'code'],
        },
      },
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE, description: `__Host-${SESSION_COOKIE} over https` },
      },
    },
  };
}

/** The answer of most calls that change something. */
export const SUCCESS = '{success:true}';
