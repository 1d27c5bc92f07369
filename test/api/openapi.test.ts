import { Validator } from '@seriousme/openapi-schema-validator';
import { afterEach, describe, expect, it } from 'vitest';
import { ERROR_STATUS } from '../../src/core/error-codes';
import { ORDER_SORTS } from '../../src/features/orders/orders.schemas';
import { CONTENT_SECURITY_POLICY } from '../../src/http/security';
import { createTestApp, type TestApp } from '../support/test-app';

/** docs/decisions/061: GET /api/openapi.json is generated from the app's own routes and their zod schemas. */

let t: TestApp;
afterEach(async () => {
  await t.close();
});

// biome-ignore lint/suspicious/noExplicitAny: the document is read freely and asserted on
type Doc = any;

/** The app's REST routes as Hono holds them: not middleware on every path, not tRPC, not the crawlers' files. */
function restRoutesOf(app: TestApp['app'], base = ''): string[] {
  const routes = app.routes
    .filter((route) => route.method !== 'ALL' && !route.path.includes('*') && !route.path.startsWith('/trpc/'))
    .filter((route) => !['/robots.txt', '/sitemap.xml'].includes(route.path))
    // Hono's `:token` is OpenAPI's `{token}`.
    .map((route) => `${route.method} ${route.path.slice(base.length).replace(/:(\w+)/g, '{$1}')}`);
  return [...new Set(routes)].sort();
}

function operationsOf(doc: Doc, base = ''): string[] {
  return Object.entries(doc.paths as Record<string, Record<string, unknown>>)
    .flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path.slice(base.length)}`))
    .sort();
}

describe('GET /api/openapi.json', () => {
  it('is valid OpenAPI 3.1, public, and answered as JSON', async () => {
    t = await createTestApp();
    const answer = await t.request('/api/openapi.json');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(answer.json.openapi).toBe('3.1.0');
    const result = await new Validator().validate(answer.json);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('holds every REST route the app serves, each with its method, and nothing else', async () => {
    t = await createTestApp();
    const doc: Doc = (await t.request('/api/openapi.json')).json;
    const routes = restRoutesOf(t.app);
    expect(routes.length).toBeGreaterThan(75);
    expect(operationsOf(doc)).toEqual(routes);
    for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, Doc>>)) {
      for (const [method, op] of Object.entries(methods)) {
        // Each route says who may call it and what it answers, beside its own code.
        expect(op.responses['200'].description, `${method} ${path}`).not.toBe('OK');
        expect(['public', 'signed in', 'pending sign-in', 'admin', 'mgmt', 'platform'], `${method} ${path}`).toContain(op['x-access']);
        expect(op.responses.default.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Failure' });
      }
    }
    // The specification's deletes (GET) and the admin calls' guards are found on the routes themselves.
    expect(doc.paths['/api/users/deleteuser'].get['x-access']).toBe('admin');
    expect(doc.paths['/orders/totals'].get['x-access']).toBe('mgmt');
    expect(doc.paths['/orders/totals'].get.responses['403'].description).toBe('Forbidden (or refused as cross-site)');
    expect(doc.paths['/orders/create'].post['x-access']).toBe('public');
    expect(doc.paths['/orders/create'].post.responses['401']).toBeUndefined();
    // A path parameter is declared as one; Mollie's webhook is a form.
    expect(doc.paths['/api/order-status/{token}/pay'].post.parameters).toEqual([{ name: 'token', in: 'path', required: true, schema: { type: 'string' } }]);
    expect(doc.paths['/api/payments/mollie/webhook'].post.requestBody.content['application/x-www-form-urlencoded'].schema.required).toEqual(['id']);
  });

  it('describes bodies and query strings from the zod schemas that check them', async () => {
    t = await createTestApp();
    const doc: Doc = (await t.request('/api/openapi.json')).json;
    const login = doc.paths['/api/account/login'].post;
    expect(login.requestBody.content['application/json'].schema).toEqual({
      type: 'object',
      properties: { username: { type: 'string', maxLength: 64, minLength: 1 }, password: { type: 'string', minLength: 1, maxLength: 256 } },
      required: ['username', 'password'],
    });
    expect(Object.keys(login.responses).sort()).toEqual(['200', '400', '413', '415', 'default']);
    expect(login.responses['200'].content['application/json'].schema).toEqual({
      type: 'object',
      properties: { success: { const: true }, user: {} },
      required: ['success', 'user'],
    });
    const orders = doc.paths['/orders'].get;
    const sort = orders.parameters.find((p: Doc) => p.name === 'sort');
    expect(sort).toEqual({ name: 'sort', in: 'query', required: false, schema: { type: 'string', enum: [...ORDER_SORTS] } });
    expect(doc.paths['/orders/setDelivered'].post.parameters).toEqual([{ name: 'id', in: 'query', required: true, schema: { type: ['number', 'string'] } }]);
    expect(doc.paths['/orders/setDelivered'].post.requestBody.content['application/json'].schema.required).toEqual(['delivered']);
    // The upload: multipart with the APK as a file; the downloads: their file types.
    const upload = doc.paths['/api/update/upload'].post.requestBody;
    expect(upload.required).toBe(true);
    expect(upload.content['multipart/form-data'].schema.properties.apk_file).toMatchObject({ type: 'string', format: 'binary' });
    expect(Object.keys(doc.paths['/api/update/latest'].get.responses['200'].content)).toEqual(['application/vnd.android.package-archive']);
    expect(Object.keys(doc.paths['/orders/invoice.pdf'].get.responses['200'].content)).toEqual(['application/pdf']);
  });

  it('describes the failure answer as the app gives it: {success:false,error,code}', async () => {
    t = await createTestApp();
    const doc: Doc = (await t.request('/api/openapi.json')).json;
    expect(doc.components.schemas.Failure).toEqual({
      type: 'object',
      properties: { success: { const: false }, error: { type: 'string' }, code: { type: 'string', enum: Object.keys(ERROR_STATUS) } },
      required: ['success', 'error', 'code'],
    });
    expect(doc.components.schemas.Failure.properties.code.enum).toEqual(expect.arrayContaining(['INVALID_CREDENTIALS', 'INVOICE_LOCKED', 'FIELD_REQUIRED']));
    // The values a text names come beside it (docs/decisions/062): the schema leaves room for them.
    const refused = await t.request('/api/account/login', { body: {} });
    expect(refused.status).toBe(400);
    expect(refused.json).toEqual({ success: false, error: 'Username and password are required', code: 'FIELD_REQUIRED', field: 'username' });
    expect(doc.components.schemas.Failure.additionalProperties).toBeUndefined();
  });

  it('lists the paths under API_BASE_PATH where they are mounted', async () => {
    t = await createTestApp({ env: { API_BASE_PATH: '/backend' } });
    const doc: Doc = (await t.request('/backend/api/openapi.json')).json;
    expect(Object.keys(doc.paths)).toContain('/backend/orders/create');
    expect(operationsOf(doc, '/backend')).toEqual(restRoutesOf(t.app, '/backend'));
    expect((await t.request('/api/openapi.json')).status).toBe(404);
  });
});

describe('validation through the routes’ validators keeps the answers', () => {
  it('reads JSON bodies as before: 415 for another type, 413 when too large, 400 when malformed, {} when empty', async () => {
    t = await createTestApp();
    const asText = await t.request('/contact/send', { rawBody: '{}', headers: { 'content-type': 'text/plain' } });
    expect([asText.status, asText.json.error]).toEqual([415, 'Content-Type must be application/json']);
    const large = await t.request('/contact/send', { rawBody: JSON.stringify({ message: 'x'.repeat(300 * 1024) }) });
    expect([large.status, large.json.error]).toEqual([413, 'Request body too large']);
    const malformed = await t.request('/contact/send', { rawBody: '{"name":' });
    expect([malformed.status, malformed.json.error]).toEqual([400, 'Malformed JSON body']);
    const empty = await t.request('/api/account/login', { method: 'POST' });
    expect([empty.status, empty.json.error]).toEqual([400, 'Username and password are required']);
  });

  it('checks the query string before the body, after the guard', async () => {
    t = await createTestApp();
    const cookie = await t.cookieFor('admin');
    expect((await t.request('/tablers/update?id=x', { rawBody: '{' })).status).toBe(401);
    const badId = await t.request('/tablers/update?id=x', { rawBody: '{', cookie });
    expect([badId.status, badId.json.error]).toEqual([400, 'Invalid id']);
  });
});

describe('GET /api/docs', () => {
  it('renders the document as a page with no script, under the site’s Content-Security-Policy', async () => {
    t = await createTestApp();
    const page = await t.request('/api/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=UTF-8');
    expect(page.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(page.text).not.toMatch(/<script|https?:\/\//);
    expect(page.text).toContain('<a href="openapi.json">');
    const doc: Doc = (await t.request('/api/openapi.json')).json;
    for (const path of Object.keys(doc.paths)) expect(page.text).toContain(`<code>${path}</code>`);
    expect(page.text).toContain('<code>{ username: string; password: string }</code>');
    expect(page.text).toContain('<td>200</td><td>{success:true,user}</td><td><code>{ success: true; user: any }</code></td>');
  });
});
