import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, orders } from '../../src/db/schema';
import { createNodeAssets } from '../../src/platform/node-assets';
import { decodeQrPng } from '../support/qr-decode';
import { pdfText } from '../support/pdf-text';
import { createTestApp, type TestApp } from '../support/test-app';

/**
 * DESIGN §6 "The door", sellers' own links (docs/decisions/070): POST /tablers/link (and its tRPC twin) with its
 * QR code, GET /api/sellers/<token>, the A6 flyer, and POST /orders/create with `seller_token`.
 */

const ORIGIN = 'https://kerst.example.nl';
const LINK = /^https:\/\/kerst\.example\.nl\/bestellen\/(\d+\.[A-Za-z0-9_-]{12}\.[A-Za-z0-9_-]{22})$/;
const SELLER_GONE = 'Deze bestellink werkt niet (meer). Vraag het lid om een nieuwe link.';

let t: TestApp;
let admin: string;
let ip = 0;

beforeAll(async () => {
  t = await createTestApp({ env: { PUBLIC_URL: ORIGIN } });
  admin = await t.cookieFor('admin');
});
afterAll(async () => t.close());
afterEach(() => expect(t.errors).toEqual([]));

async function createTabler(name: string): Promise<number> {
  const r = await t.request('/tablers/create', { cookie: admin, body: { name } });
  expect(r.json?.success, JSON.stringify(r.json)).toBe(true);
  return r.json.tabler.id as number;
}

async function link(id: number, body?: unknown, headers: Record<string, string> = {}, cookie = admin) {
  return t.request(`/tablers/link?id=${id}`, { method: 'POST', cookie, body, headers });
}

const tokenOf = (url: string) => LINK.exec(url)?.[1] ?? '';
const pngOf = (dataUrl: string) => new Uint8Array(Buffer.from(dataUrl.replace(/^data:image\/png;base64,/, ''), 'base64'));

const CUSTOMER = {
  name: 'Klaas Klant',
  email: 'klaas@example.nl',
  phone: '0517 123456',
  address: 'Voorstraat 1',
  postal_code: '8861 BJ',
  city: 'Harlingen',
  amount: 12,
};

/** A public order as a customer's browser sends it, from an address of its own (the public limits count per address). */
async function publicOrder(body: Record<string, unknown>) {
  ip++;
  return t.request('/orders/create', { body: { ...CUSTOMER, ...body }, headers: { 'x-test-client-ip': `10.70.0.${ip}` } });
}

describe('POST /tablers/link', () => {
  it('answers the link on the configured origin, whatever Host the request names, and a PNG QR code of it', async () => {
    const id = await createTabler('Pieter Verkoper');
    const r = await link(id, undefined, { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'http' });
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(Object.keys(r.json).sort()).toEqual(['qr_png', 'success', 'url']);
    expect(r.json.success).toBe(true);
    expect(r.json.url).toMatch(LINK);
    expect(r.json.url.startsWith(`${ORIGIN}/bestellen/${id}.`)).toBe(true);
    expect(r.json.qr_png).toMatch(/^data:image\/png;base64,[A-Za-z0-9+/]+=*$/);
    expect(decodeQrPng(pngOf(r.json.qr_png))).toBe(r.json.url);
    // The same link again: the first call made it, later calls answer it.
    expect((await link(id)).json.url).toBe(r.json.url);
    expect((await link(id, {})).json.url).toBe(r.json.url);
  });

  it('renews the link with {renew:true}: the old one stops, the new one works, and the log says so', async () => {
    const id = await createTabler('Renate Nieuw');
    const old = (await link(id)).json.url as string;
    const renewed = await link(id, { renew: true });
    expect(renewed.status).toBe(200);
    expect(renewed.json.url).toMatch(LINK);
    expect(renewed.json.url).not.toBe(old);
    expect(decodeQrPng(pngOf(renewed.json.qr_png))).toBe(renewed.json.url);

    const gone = await t.request(`/api/sellers/${tokenOf(old)}`);
    expect(gone.status).toBe(404);
    expect(gone.json).toEqual({ success: false, error: SELLER_GONE, code: 'SELLER_NOT_FOUND' });
    const works = await t.request(`/api/sellers/${tokenOf(renewed.json.url)}`);
    expect(works.json).toEqual({ tabler_id: id, tabler_name: 'Renate Nieuw' });

    const entries = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'tabler.link_renewed'), eq(auditLog.target, `tabler:${id} (Renate Nieuw)`)));
    expect(entries).toHaveLength(1);
    expect(entries[0]!.actorUsername).toBe('admin');
    // Asking for the current link writes no entry.
    await link(id);
    expect(await t.db.select().from(auditLog).where(eq(auditLog.action, 'tabler.link_renewed'))).toHaveLength(1);
  });

  it('has a tRPC twin for Management, renewal included', async () => {
    const id = await createTabler('Tessa Trpc');
    const call = (input: unknown) => t.request('/trpc/tablers.link', { cookie: admin, body: input });
    const first = await call({ id });
    expect(first.status).toBe(200);
    const answer = first.json.result.data;
    expect(answer.success).toBe(true);
    expect(decodeQrPng(pngOf(answer.qr_png))).toBe(answer.url);
    const renewed = (await call({ id, renew: true })).json.result.data;
    expect(renewed.url).not.toBe(answer.url);
    expect((await call({ id })).json.result.data.url).toBe(renewed.url);
  });

  it('refuses a visitor (401), a user without management (403), an unknown tabler (404) and a bad renew (400)', async () => {
    const id = await createTabler('Gerrit Geheim');
    const anonymous = await t.request(`/tablers/link?id=${id}`, { method: 'POST' });
    expect(anonymous.status).toBe(401);
    expect(anonymous.json.code).toBe('NOT_LOGGED_IN');
    await t.createUser('link_lid', ['Users']);
    const member = await link(id, undefined, {}, await t.cookieFor('link_lid'));
    expect(member.status).toBe(403);
    expect(member.json.code).toBe('FORBIDDEN');
    const unknown = await link(999_999);
    expect(unknown.status).toBe(404);
    expect(unknown.json).toEqual({ success: false, error: 'Tabler niet gevonden.', code: 'TABLER_NOT_FOUND' });
    const badRenew = await link(id, { renew: 'ja' });
    expect(badRenew.status).toBe(400);
    expect(badRenew.json.success).toBe(false);
    // Nothing of a refused call made a link.
    const [row] = await t.request('/tablers', { cookie: admin }).then((r) => r.json.filter((x: { id: number }) => x.id === id));
    expect(row).toBeDefined();
  });

  it('lets a treasurer (management.access without admin) make the link', async () => {
    const id = await createTabler('Pim Penning');
    await t.createUser('link_penning', ['Penningmeesters']);
    const r = await link(id, undefined, {}, await t.cookieFor('link_penning'));
    expect(r.status).toBe(200);
    expect(r.json.url).toMatch(LINK);
  });
});

describe('GET /api/sellers/<token>', () => {
  it('names the seller of a good token, publicly and uncached', async () => {
    const id = await createTabler('Sanne Seller');
    const token = tokenOf((await link(id)).json.url);
    const r = await t.request(`/api/sellers/${token}`);
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.json).toEqual({ tabler_id: id, tabler_name: 'Sanne Seller' });
  });

  it('answers 404 with a Dutch text for a forged, malformed, unknown or deleted seller', async () => {
    const id = await createTabler('Frits Vervalst');
    const token = tokenOf((await link(id)).json.url);
    const [, nonce, signature] = token.split('.');
    const other = await createTabler('Olga Ander');
    const forged = [
      `${other}.${nonce}.${signature}`,
      `${id}.${nonce}.${signature!.slice(0, -1)}${signature!.endsWith('A') ? 'B' : 'A'}`,
      `${id}.${'x'.repeat(12)}.${signature}`,
      'zomaar-iets',
      `${token}x`,
    ];
    for (const bad of forged) {
      const r = await t.request(`/api/sellers/${encodeURIComponent(bad)}`);
      expect(r.status, bad).toBe(404);
      expect(r.json, bad).toEqual({ success: false, error: SELLER_GONE, code: 'SELLER_NOT_FOUND' });
    }
    await t.request(`/tablers/delete?id=${id}`, { method: 'POST', cookie: admin });
    expect((await t.request(`/api/sellers/${token}`)).status).toBe(404);
  });
});

describe('GET /tablers/link/flyer.pdf', () => {
  it('is an A6 PDF with the club, the package price, the seller, and the link as text', async () => {
    const id = await createTabler('Femke Flyer');
    const url = (await link(id)).json.url as string;
    const r = await t.app.request(`http://127.0.0.1/tablers/link/flyer.pdf?id=${id}`, { headers: { cookie: admin } });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/pdf');
    expect(r.headers.get('content-disposition')).toBe(`attachment; filename="flyer-femke-flyer.pdf"`);
    expect(r.headers.get('cache-control')).toBe('no-store');
    const pdf = new Uint8Array(await r.arrayBuffer());
    expect(Number(r.headers.get('content-length'))).toBe(pdf.byteLength);
    const text = await pdfText(pdf);
    expect(text).toContain('Kerstactie Ronde Tafel 144 Harlingen');
    expect(text).toContain('Kerstpakketten voor het goede doel');
    expect(text).toContain('€ 75,00 per pakket, exclusief btw');
    expect(text).not.toContain('€ €');
    expect(text).toContain('Bestel via Femke Flyer');
    // The link may be cut over lines: its characters in order, white space aside.
    expect(text.replace(/\s+/g, '')).toContain(url);
    const { PDFDocument } = await import('pdf-lib');
    const [page] = (await PDFDocument.load(pdf)).getPages();
    expect(page!.getSize()).toEqual({ width: 297.64, height: 419.53 });
  });

  it('refuses visitors (401) and unknown tablers (404)', async () => {
    expect((await t.app.request('http://127.0.0.1/tablers/link/flyer.pdf?id=1')).status).toBe(401);
    const r = await t.request('/tablers/link/flyer.pdf?id=999999', { cookie: admin });
    expect(r.status).toBe(404);
    expect(r.json.code).toBe('TABLER_NOT_FOUND');
  });
});

describe('POST /orders/create with seller_token', () => {
  it("makes the order the seller's, without the gate, whatever tabler_id is sent beside it", async () => {
    const seller = await createTabler('Vera Verkoop');
    const other = await createTabler('Otto Anders');
    const token = tokenOf((await link(seller)).json.url);
    const r = await publicOrder({ seller_token: token, tabler_id: other });
    expect(r.status, r.text).toBe(200);
    expect(r.json.success).toBe(true);
    const [row] = await t.db.select().from(orders).where(eq(orders.reference, r.json.order_reference));
    expect(row!.tablerId).toBe(seller);
    // A public order: unpaid, at the public limits (12 packages is above the back-office's 10).
    expect(row!.paid).toBe(false);
    expect(row!.amount).toBe(12);
    const alone = await publicOrder({ seller_token: token });
    expect(alone.status, alone.text).toBe(200);
  });

  it('refuses a forged or renewed token with SELLER_LINK_INVALID, and keeps the public limits', async () => {
    const seller = await createTabler('Rik Renew');
    const old = tokenOf((await link(seller)).json.url);
    await link(seller, { renew: true });
    for (const token of [old, `${seller}.${'a'.repeat(12)}.${'b'.repeat(22)}`]) {
      const r = await publicOrder({ seller_token: token });
      expect(r.status).toBe(400);
      expect(r.json).toEqual({ success: false, error: SELLER_GONE, code: 'SELLER_LINK_INVALID' });
    }
    const fresh = tokenOf((await link(seller)).json.url);
    const tooMany = await publicOrder({ seller_token: fresh, amount: 501 });
    expect(tooMany.status).toBe(400);
  });
});

describe('the seller page and robots.txt', () => {
  it('keeps crawlers out of /bestellen', async () => {
    const robots = await t.request('/robots.txt');
    expect(robots.text.split('\n')).toContain('Disallow: /bestellen');
  });

  it("answers every /bestellen/<token> with the seller page's one file, though the token has dots", async () => {
    const root = mkdtempSync(join(tmpdir(), 'kerstactie-seller-page-'));
    writeFileSync(join(root, 'bestellen.html'), '<!doctype html><title>Bestellen</title><p>seller page</p>');
    writeFileSync(join(root, 'app.html'), '<!doctype html><title>Kerstactie</title><div id="root"></div>');
    const site = await createTestApp({ assets: createNodeAssets(root) });
    try {
      const page = (path: string) => site.app.request(`http://127.0.0.1${path}`, { headers: { accept: 'text/html' } });
      for (const path of ['/bestellen/12.abcdefghijkl.abcdefghijklmnopqrstuv', '/bestellen/12.abcdefghijkl.abcdefghijklmnopqrstuv/', '/bestellen']) {
        const r = await page(path);
        expect(r.status, path).toBe(200);
        expect(await r.text(), path).toContain('seller page');
      }
      // Not a token's shape: a dotted last segment is a missing file, as anywhere else.
      expect((await page('/bestellen/12.abc')).status).toBe(404);
      expect(await (await page('/bestellen-niet')).text()).toContain('id="root"');
    } finally {
      await site.close();
      rmSync(root, { recursive: true, force: true });
    }
  });
});
