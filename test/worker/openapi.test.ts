import { SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../../src/http/security';
import { SITE } from './sign-in';

/** docs/decisions/061 inside workerd: the Worker writes the same contract from its own routes, and its page. */
describe('the REST contract inside workerd', () => {
  it('answers GET /api/openapi.json with every REST route of the Worker, and GET /api/docs with its page', async () => {
    const response = await SELF.fetch(`${SITE}/api/openapi.json`);
    expect(response.status).toBe(200);
    // biome-ignore lint/suspicious/noExplicitAny: the document is read freely and asserted on
    const doc: any = await response.json();
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths).length).toBeGreaterThan(70);
    expect(doc.paths['/api/account/login'].post.requestBody.content['application/json'].schema.required).toEqual(['username', 'password']);
    expect(doc.paths['/api/update/upload'].post.requestBody.content['multipart/form-data'].schema.properties.apk_file).toMatchObject({ format: 'binary' });
    expect(doc.paths['/orders/totals'].get['x-access']).toBe('mgmt');

    const page = await SELF.fetch(`${SITE}/api/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    const html = await page.text();
    expect(html).not.toContain('<script');
    expect(html).toContain('<code>/orders/create</code>');
  });
});
