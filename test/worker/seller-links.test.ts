import { env, SELF } from 'cloudflare:test';
import { decodeBase64 } from '@oslojs/encoding';
import { eq } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { extractText } from 'unpdf';
import { describe, expect, it } from 'vitest';
import { openD1Db } from '../../src/db/d1';
import { orders } from '../../src/db/schema';
import { decodeQrRgba } from '../support/qr-decode';
import { adminCookie, SITE } from './sign-in';

const bindings = env as unknown as { DB: Parameters<typeof openD1Db>[0] };

/**
 * The QR code's text, read back by jsQR from the PNG's pixels. pngjs's inflate does not run in workerd, so the
 * PNG is read here with the runtime's DecompressionStream: 1-bit grayscale, every row with filter 0, as
 * platform/png.ts writes a QR code.
 */
async function decodeQr(png: Uint8Array): Promise<string | null> {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  const [width, height] = [view.getUint32(16), view.getUint32(20)];
  expect([png[24], png[25]]).toEqual([1, 0]);
  const idat: Uint8Array[] = [];
  for (let at = 8; at < png.length; ) {
    const length = view.getUint32(at);
    if (new TextDecoder().decode(png.subarray(at + 4, at + 8)) === 'IDAT') idat.push(png.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  const stream = new Blob(idat as Uint8Array<ArrayBuffer>[]).stream().pipeThrough(new DecompressionStream('deflate'));
  const rows = new Uint8Array(await new Response(stream).arrayBuffer());
  const rowBytes = Math.ceil(width / 8) + 1;
  const rgba = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    expect(rows[y * rowBytes]).toBe(0);
    for (let x = 0; x < width; x++) {
      const white = (rows[y * rowBytes + 1 + (x >> 3)]! >> (7 - (x & 7))) & 1;
      rgba.fill(white ? 255 : 0, (y * width + x) * 4, (y * width + x) * 4 + 3);
      rgba[(y * width + x) * 4 + 3] = 255;
    }
  }
  return decodeQrRgba(rgba, width, height);
}

/**
 * Sellers' own links inside workerd (docs/decisions/070), on D1 (or Turso on the worker-turso project): the link on
 * the configured origin with its QR PNG (made with CompressionStream), whose link a token is, the A6 flyer with
 * the fonts the Worker reads from its assets, and a public order through the link.
 */
describe('sellers’ own links inside workerd', () => {
  const post = (path: string, body: unknown, headers: Record<string, string>) =>
    SELF.fetch(`${SITE}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

  it('makes, renews and follows a tabler’s link', async () => {
    const cookie = await adminCookie('198.51.100.90');
    const admin = { cookie, 'cf-connecting-ip': '198.51.100.90' };
    const created = (await (await post('/tablers/create', { name: 'Worker Verkoper' }, admin)).json()) as { tabler: { id: number } };
    const id = created.tabler.id;

    const first = await post(`/tablers/link?id=${id}`, {}, { ...admin, host: 'evil.example', 'x-forwarded-host': 'evil.example' });
    expect(first.status).toBe(200);
    const link = (await first.json()) as { success: boolean; url: string; qr_png: string };
    expect(link.success).toBe(true);
    // The Worker's PUBLIC_URL of the test configs, never the request's Host.
    expect(link.url).toMatch(new RegExp(`^https://kerst\\.example/bestellen/${id}\\.[A-Za-z0-9_-]{12}\\.[A-Za-z0-9_-]{22}$`));
    const png = decodeBase64(link.qr_png.replace(/^data:image\/png;base64,/, ''));
    expect(await decodeQr(png)).toBe(link.url);
    const token = link.url.slice(`${SITE}/bestellen/`.length);

    // The page itself: the prerendered /bestellen answers the token's path, dots and all (docs/decisions/070).
    const page = await SELF.fetch(link.url, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('data-prerendered="/bestellen"');

    const seller = await SELF.fetch(`${SITE}/api/sellers/${token}`);
    expect(seller.headers.get('cache-control')).toBe('no-store');
    expect([seller.status, await seller.json()]).toEqual([200, { tabler_id: id, tabler_name: 'Worker Verkoper' }]);

    // A customer orders through the link from another address: the order is the seller's, no gate.
    const other = (await (await post('/tablers/create', { name: 'Worker Ander' }, admin)).json()) as { tabler: { id: number } };
    const customer = { 'cf-connecting-ip': '198.51.100.91' };
    const fields = {
      name: 'Wieke Klant',
      email: 'wieke@example.nl',
      phone: '0517 123456',
      address: 'Voorstraat 3',
      postal_code: '8861 BJ',
      city: 'Harlingen',
      amount: 2,
    };
    const order = await post('/orders/create', { ...fields, seller_token: token, tabler_id: other.tabler.id }, customer);
    const placed = (await order.json()) as { success: boolean; order_reference: string };
    expect([order.status, placed.success]).toEqual([200, true]);
    const [row] = await openD1Db(bindings.DB).select().from(orders).where(eq(orders.reference, placed.order_reference));
    expect(row!.tablerId).toBe(id);

    const flyer = await SELF.fetch(`${SITE}/tablers/link/flyer.pdf?id=${id}`, { headers: admin });
    expect(flyer.status).toBe(200);
    expect(flyer.headers.get('content-type')).toBe('application/pdf');
    const bytes = new Uint8Array(await flyer.arrayBuffer());
    expect((await PDFDocument.load(bytes)).getPage(0).getSize()).toEqual({ width: 297.64, height: 419.53 });
    const { text } = await extractText(bytes, { mergePages: true });
    expect(text.replace(/\s+/g, ' ')).toContain('Bestel via Worker Verkoper');
    expect(text.replace(/\s+/g, '')).toContain(link.url);

    // A renewal stops the old link for the lookup and for orders.
    const renewed = (await (await post(`/tablers/link?id=${id}`, { renew: true }, admin)).json()) as { url: string };
    expect(renewed.url).not.toBe(link.url);
    const gone = await SELF.fetch(`${SITE}/api/sellers/${token}`);
    expect([gone.status, ((await gone.json()) as { code: string }).code]).toEqual([404, 'SELLER_NOT_FOUND']);
    const refused = await post('/orders/create', { ...fields, seller_token: token }, customer);
    expect([refused.status, ((await refused.json()) as { code: string }).code]).toEqual([400, 'SELLER_LINK_INVALID']);
  });
});
