import { and, asc, eq } from 'drizzle-orm';
import { PDFDict, PDFDocument, PDFName } from 'pdf-lib';
import { extractText, extractTextItems } from 'unpdf';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, orders } from '../../src/db/schema';
import { setSettings, VALID_INVOICE_SETTINGS } from '../support/invoice-settings';
import { createTestApp, type TestApp } from '../support/test-app';
import { expectFailure, transports } from '../support/transports';
import { anyCode } from '../support/refusal';

/**
 * docs/decisions/023, delivery day (docs/architecture.md §5 "Members and delivery"): the delivered mark over REST and tRPC with
 * its audit entry, the bulk actions, and a tabler's delivery list PDF read back as text.
 */

let t: TestApp;
let admin: string;

type Op = 'setDelivered' | 'bulk';
const [rest, trpc] = transports<Op>(() => t, {
  rest: { setDelivered: ['POST', '/orders/setDelivered', 'id'], bulk: ['POST', '/orders/bulk'] },
  trpc: { setDelivered: ['mutation', 'delivery.setDelivered', 'id'], bulk: ['mutation', 'invoices.bulk'] },
});

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.cookieFor('admin');
});
afterAll(async () => t.close());
afterEach(() => expect(t.errors).toEqual([]));

async function createTabler(name: string): Promise<number> {
  const r = await t.request('/tablers/create', { cookie: admin, body: { name } });
  expect(r.json?.success, JSON.stringify(r.json)).toBe(true);
  return r.json.tabler.id as number;
}

interface OrderFields {
  name: string;
  tabler_id?: number | null;
  address?: string;
  postal_code?: string;
  city?: string;
  phone?: string;
  amount?: number;
  notes?: string;
}

async function createOrder(fields: OrderFields): Promise<{ id: number; reference: string }> {
  const body = {
    tabler_id: null,
    email: 'klant@example.nl',
    phone: '0517 123456',
    address: 'Voorstraat 1',
    postal_code: '8861 BJ',
    city: 'Harlingen',
    amount: 1,
    ...fields,
  };
  const r = await t.request('/orders/create', { cookie: admin, body });
  expect(r.json?.success, JSON.stringify(r.json)).toBe(true);
  const [row] = await t.db.select({ id: orders.id, reference: orders.reference }).from(orders).where(eq(orders.reference, r.json.order_reference));
  return row!;
}

const orderRow = async (id: number) => (await t.db.select().from(orders).where(eq(orders.id, id)))[0]!;

async function deliveryList(tablerId: number | string, cookie = admin) {
  const r = await t.app.request(`http://127.0.0.1/orders/delivery-list.pdf?tabler_id=${tablerId}`, { headers: { cookie } });
  return { response: r, bytes: new Uint8Array(await r.arrayBuffer()) };
}

/** Each page's text as a reader's copy-paste gives it, white space made single spaces. */
async function pagesOf(pdf: Uint8Array): Promise<string[]> {
  const { text } = await extractText(new Uint8Array(pdf), { mergePages: false });
  return text.map((page) => page.replace(/\s+/g, ' '));
}

/** The order of `names` as they first appear in `text` (each must appear). */
function inTextOrder(text: string, names: string[]): string[] {
  for (const name of names) expect(text, name).toContain(name);
  return [...names].sort((a, b) => text.indexOf(a) - text.indexOf(b));
}

describe('who may mark deliveries and print the lists', () => {
  it('refuses anonymous callers (401) and members without management.access (403); the treasurer may', async () => {
    const tabler = await createTabler('Permissie Tabler');
    const { id } = await createOrder({ name: 'Perm Klant', tabler_id: tabler });
    await t.createUser('bezorg_lid', ['Users']);
    const member = await t.cookieFor('bezorg_lid');
    for (const [cookie, status, message] of [
      [undefined, 401, 'Not logged in'],
      [member, 403, 'Forbidden'],
    ] as const) {
      for (const tr of [rest, trpc]) {
        expectFailure(tr, await tr.call('setDelivered', { cookie, id, body: { delivered: true } }), status, message);
        expectFailure(tr, await tr.call('bulk', { cookie, body: { ids: [id], action: 'mark_delivered' } }), status, message);
      }
      const list = await deliveryList(tabler, cookie ?? '');
      expect(list.response.status).toBe(status);
      expect(JSON.parse(new TextDecoder().decode(list.bytes))).toMatchObject({ success: false, error: message, code: anyCode });
    }
    expect((await orderRow(id)).delivered).toBe(false);

    await t.createUser('bezorg_penning', ['Penningmeesters']);
    const treasurer = await t.cookieFor('bezorg_penning');
    expect((await rest.call('setDelivered', { cookie: treasurer, id, body: { delivered: true } })).json).toEqual({ success: true });
    expect((await deliveryList(tabler, treasurer)).response.status).toBe(200);
  });
});

describe('the delivered mark', () => {
  for (const tr of [rest, trpc]) {
    it(`${tr.name}: sets delivered with the time, takes it back, and audits each change once`, async () => {
      const { id, reference } = await createOrder({ name: `${tr.p} Bezorg Klant` });
      const at = t.clock.now().toISOString();
      const marked = await tr.call('setDelivered', { cookie: admin, id, body: { delivered: true } });
      expect(marked.status).toBe(200);
      expect(marked.data).toEqual({ success: true });
      expect(await orderRow(id)).toMatchObject({ delivered: true, deliveredAt: at });
      const listed = (await t.request(`/orders?q=${encodeURIComponent(`${tr.p} bezorg`)}`, { cookie: admin })).json;
      expect(listed).toEqual([expect.objectContaining({ id, delivered: true, delivered_at: at })]);

      // Marking it again keeps the first time and writes no second entry.
      t.clock.advance(60_000);
      await tr.call('setDelivered', { cookie: admin, id, body: { delivered: true } });
      expect((await orderRow(id)).deliveredAt).toBe(at);

      const undone = await tr.call('setDelivered', { cookie: admin, id, body: { delivered: false } });
      expect(undone.data).toEqual({ success: true });
      expect(await orderRow(id)).toMatchObject({ delivered: false, deliveredAt: null });

      const entries = await t.db
        .select({ action: auditLog.action, target: auditLog.target, details: auditLog.details, actor: auditLog.actorUsername })
        .from(auditLog)
        .where(and(eq(auditLog.action, 'order.delivered'), eq(auditLog.target, `order:${id} (${reference})`)))
        .orderBy(asc(auditLog.id));
      expect(entries.map((e) => ({ ...e, details: JSON.parse(e.details) }))).toEqual([
        { action: 'order.delivered', target: `order:${id} (${reference})`, details: { delivered: [false, true] }, actor: 'admin' },
        { action: 'order.delivered', target: `order:${id} (${reference})`, details: { delivered: [true, false] }, actor: 'admin' },
      ]);
    });

    it(`${tr.name}: answers 404 for an unknown order and 400 for a bad body or id`, async () => {
      const { id } = await createOrder({ name: `${tr.p} Fout Klant` });
      expectFailure(tr, await tr.call('setDelivered', { cookie: admin, id: 999_999, body: { delivered: true } }), 404, 'Bestelling niet gevonden.');
      expectFailure(tr, await tr.call('setDelivered', { cookie: admin, id, body: { delivered: 'ja' } }), 400, 'delivered must be true or false');
      expectFailure(tr, await tr.call('setDelivered', { cookie: admin, id, body: {} }), 400, 'delivered must be true or false');
      expectFailure(tr, await tr.call('setDelivered', { cookie: admin, id: 'abc', body: { delivered: true } }), 400, 'Invalid id');
      expectFailure(tr, await tr.call('setDelivered', { cookie: admin, id, rawBody: '{"delivered":' }), 400, 'Malformed JSON body');
      expect((await orderRow(id)).delivered).toBe(false);
    });
  }

  it('lets GET /orders filter what is still to deliver', async () => {
    const tabler = await createTabler('Filter Tabler');
    const a = await createOrder({ name: 'Filter Een', tabler_id: tabler });
    await createOrder({ name: 'Filter Twee', tabler_id: tabler });
    await rest.call('setDelivered', { cookie: admin, id: a.id, body: { delivered: true } });
    const names = async (delivered: string) =>
      ((await t.request(`/orders?tabler_id=${tabler}&delivered=${delivered}`, { cookie: admin })).json as { name: string }[]).map((o) => o.name);
    expect(await names('false')).toEqual(['Filter Twee']);
    expect(await names('true')).toEqual(['Filter Een']);
  });
});

describe('bulk delivery marks', () => {
  for (const tr of [rest, trpc]) {
    it(`${tr.name}: marks many orders delivered and back, each on its own`, async () => {
      const a = await createOrder({ name: `${tr.p} Bulk A` });
      const b = await createOrder({ name: `${tr.p} Bulk B` });
      const marked = await tr.call('bulk', { cookie: admin, body: { ids: [a.id, b.id, 999_999], action: 'mark_delivered' } });
      expect(marked.data).toEqual({
        success: true,
        results: [
          { id: a.id, success: true },
          { id: b.id, success: true },
          { id: 999_999, success: false, error: 'Bestelling niet gevonden.', code: 'ORDER_NOT_FOUND' },
        ],
      });
      for (const { id } of [a, b]) expect(await orderRow(id)).toMatchObject({ delivered: true, deliveredAt: t.clock.now().toISOString() });
      const undone = await tr.call('bulk', { cookie: admin, body: { ids: [b.id], action: 'mark_undelivered' } });
      expect(undone.data).toEqual({ success: true, results: [{ id: b.id, success: true }] });
      expect(await orderRow(a.id)).toMatchObject({ delivered: true });
      expect(await orderRow(b.id)).toMatchObject({ delivered: false, deliveredAt: null });
      const audited = await t.db
        .select({ details: auditLog.details })
        .from(auditLog)
        .where(eq(auditLog.target, `order:${b.id} (${b.reference})`))
        .orderBy(asc(auditLog.id));
      expect(audited.map((e) => JSON.parse(e.details))).toEqual([{ delivered: [false, true] }, { delivered: [true, false] }]);
    });
  }
});

describe('the delivery list PDF', () => {
  it("lists one tabler's undelivered, uncredited orders in driving order, with the header and totals", async () => {
    await setSettings(t, admin, VALID_INVOICE_SETTINGS);
    const tabler = await createTabler('Sjoerd de Vries');
    const other = await createTabler('Andere Tabler');
    // Created out of order: the list sorts them by postal code, street and house number (2 before 10).
    await createOrder({ name: 'Tiede Tien', tabler_id: tabler, address: 'Voorstraat 10', postal_code: '8861 BJ', amount: 2 });
    await createOrder({
      name: 'Zeeuw Zuid',
      tabler_id: tabler,
      address: 'Zuiderhaven 1',
      postal_code: '8862 AB',
      city: 'Midlum',
      phone: '06 12345678',
      amount: 1,
    });
    await createOrder({ name: 'Tjitske Twee', tabler_id: tabler, address: 'Voorstraat 2', postal_code: '8861BJ', amount: 3, notes: 'Bel aan bij de buren' });
    await createOrder({ name: 'Anne Achter', tabler_id: tabler, address: 'Achterstraat 7', postal_code: '8861 AA', amount: 1 });
    const delivered = await createOrder({ name: 'Bauke Bezorgd', tabler_id: tabler, address: 'Voorstraat 4' });
    await rest.call('setDelivered', { cookie: admin, id: delivered.id, body: { delivered: true } });
    const credited = await createOrder({ name: 'Carla Credit', tabler_id: tabler, address: 'Voorstraat 6' });
    expect((await t.request(`/orders/sendInvoice?id=${credited.id}`, { cookie: admin, body: {} })).status).toBe(200);
    expect((await t.request(`/orders/creditInvoice?id=${credited.id}`, { cookie: admin, body: {} })).status).toBe(200);
    await createOrder({ name: 'Olle Ander', tabler_id: other });
    await createOrder({ name: 'Nynke Niemand', tabler_id: null });

    const { response, bytes } = await deliveryList(tabler);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="bezorglijst-sjoerd-de-vries.pdf"');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const [page, ...more] = await pagesOf(bytes);
    expect(more).toEqual([]);
    for (const phrase of [
      'Ronde Tafel 144 Harlingen',
      'Bezorglijst',
      'Tabler: Sjoerd de Vries',
      '22 november 2026',
      'Te bezorgen: 4 bestellingen, 7 pakketten',
      'Bezorgd Naam Adres Telefoon Pakketten',
      // Typed '8861BJ': stored and printed as 1234 AB (docs/decisions/056).
      'Tjitske Twee Voorstraat 2 8861 BJ Harlingen 0517 123456 3',
      'Opmerking: Bel aan bij de buren',
      'Zeeuw Zuid Zuiderhaven 1 8862 AB Midlum 06 12345678 1',
      'Pagina 1 van 1',
    ]) {
      expect(page, phrase).toContain(phrase);
    }
    expect(inTextOrder(page!, ['Tiede Tien', 'Zeeuw Zuid', 'Tjitske Twee', 'Anne Achter'])).toEqual([
      'Anne Achter',
      'Tjitske Twee',
      'Tiede Tien',
      'Zeeuw Zuid',
    ]);
    for (const absent of ['Bauke Bezorgd', 'Carla Credit', 'Olle Ander', 'Nynke Niemand']) expect(page).not.toContain(absent);

    // Set in the embedded font of src/platform/pdf-font.ts only (each face: its Type0 font and the CID font in it).
    const doc = await PDFDocument.load(bytes);
    const fonts = doc.context
      .enumerateIndirectObjects()
      .map(([, object]) => object)
      .filter((object): object is PDFDict => object instanceof PDFDict && object.get(PDFName.of('Type')) === PDFName.of('Font'))
      .map((font) => font.get(PDFName.of('BaseFont'))?.toString());
    expect(fonts.sort()).toEqual(['/KPFNTA+Arimo-Regular', '/KPFNTA+Arimo-Regular', '/KPFNTB+Arimo-Bold', '/KPFNTB+Arimo-Bold']);

    // The orders without a tabler have a list of their own.
    const none = await deliveryList('none');
    expect(none.response.headers.get('content-disposition')).toBe('attachment; filename="bezorglijst-onbekend.pdf"');
    const [nonePage] = await pagesOf(none.bytes);
    expect(nonePage).toContain('Tabler: Onbekend');
    expect(nonePage).toContain('Nynke Niemand');
    expect(nonePage).not.toContain('Tiede Tien');
  });

  it('says there is nothing to deliver when everything is delivered', async () => {
    const tabler = await createTabler('Klaar Tabler');
    const done = await createOrder({ name: 'Al Bezorgd', tabler_id: tabler });
    await rest.call('bulk', { cookie: admin, body: { ids: [done.id], action: 'mark_delivered' } });
    const { response, bytes } = await deliveryList(tabler);
    expect(response.status).toBe(200);
    const pages = await pagesOf(bytes);
    expect(pages).toHaveLength(1);
    expect(pages[0]).toContain('Tabler: Klaar Tabler');
    expect(pages[0]).toContain('Te bezorgen: 0 bestellingen, 0 pakketten');
    expect(pages[0]).toContain('Er is niets te bezorgen. Deze tabler heeft geen bestellingen die nog bezorgd moeten worden.');
    expect(pages[0]).not.toContain('Al Bezorgd');
  });

  it('refuses an unknown tabler (404) and a missing or malformed tabler_id (400)', async () => {
    for (const [query, status, error] of [
      ['tabler_id=999999', 404, 'Tabler niet gevonden.'],
      ['', 400, 'tabler_id is required'],
      ['tabler_id=abc', 400, 'Invalid tabler_id'],
    ] as const) {
      const r = await t.request(`/orders/delivery-list.pdf?${query}`, { cookie: admin });
      expect([r.status, r.json], query).toMatchObject([status, { success: false, error, code: anyCode }]);
    }
  });

  it('breaks 65 orders over A4 pages, each with the header, rows whole and in order, long notes wrapped', async () => {
    const tabler = await createTabler('Groot Tabler');
    const longNote = `Graag bij de achterdeur afgeven, de voordeur klemt. ${'Het pakket mag ook bij de buren op nummer drie. '.repeat(5)}Bedankt!`;
    // House numbers 1–65 on one street, created in a shuffled order; every fifth order has the long note.
    const numbers = Array.from({ length: 65 }, (_, i) => ((i * 29) % 65) + 1);
    for (const n of numbers) {
      await createOrder({
        name: `Klant ${String(n).padStart(2, '0')}`,
        tabler_id: tabler,
        address: `Noorderhaven ${n}`,
        amount: (n % 3) + 1,
        ...(n % 5 === 0 ? { notes: longNote } : {}),
      });
    }
    const packages = numbers.reduce((sum, n) => sum + (n % 3) + 1, 0);
    const { bytes } = await deliveryList(tabler);
    const pages = await pagesOf(bytes);
    expect(pages.length).toBeGreaterThanOrEqual(4);
    pages.forEach((page, i) => {
      for (const phrase of [
        'Ronde Tafel 144 Harlingen',
        'Bezorglijst',
        'Tabler: Groot Tabler',
        '22 november 2026',
        `Te bezorgen: 65 bestellingen, ${packages} pakketten`,
        'Bezorgd Naam Adres Telefoon Pakketten',
        `Pagina ${i + 1} van ${pages.length}`,
      ]) {
        expect(page, `page ${i + 1}: ${phrase}`).toContain(phrase);
      }
    });
    // Every order once, whole on one page, in house-number order across the pages.
    const all = pages.join(' ');
    const names = numbers.map((n) => `Klant ${String(n).padStart(2, '0')}`);
    expect(inTextOrder(all, names)).toEqual([...names].sort());
    for (const n of numbers) {
      const onPages = pages.filter((page) => page.includes(`Noorderhaven ${n} 8861`));
      expect(onPages, `Noorderhaven ${n}`).toHaveLength(1);
      expect(onPages[0]).toContain(`Klant ${String(n).padStart(2, '0')} Noorderhaven ${n} 8861 BJ Harlingen`);
    }
    // The long notes are wrapped: over several lines, none running past the right margin (50 pt from
    // the edge of A4; PDF.js measures a hair wider than pdf-lib placed it).
    const { items } = await extractTextItems(new Uint8Array(bytes));
    const noteLines = items.flat().filter((item) => item.str.includes('buren op nummer'));
    expect(noteLines.length).toBeGreaterThanOrEqual(13 * 2);
    const rightEdge = Math.max(...items.flat().map((item) => item.x + item.width));
    expect(rightEdge).toBeLessThanOrEqual(595.28 - 50 + 1);
  });
});
