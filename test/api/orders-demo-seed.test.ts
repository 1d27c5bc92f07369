import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { asc } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerKvkNumber, customerVatId } from '../../src/core/business-ids';
import { orders, sequences, tablers } from '../../src/db/schema';
import { foldForSearch, orderSearchText, tablerSearchName } from '../../src/db/search-text';
import { namesMatch } from '../../src/features/tablers/tabler-gate';
import type { OrderView } from '../../src/features/orders/orders.service';
import { setSettings, VALID_INVOICE_SETTINGS } from '../support/invoice-settings';
import { createTestApp, type TestApp } from '../support/test-app';

/** docs/decisions/034: `npm run seed:demo` (scripts/seed-demo.mjs) fills a database with a campaign of made-up orders. */

type Row = typeof orders.$inferSelect;

const run = promisify(execFile);
let t: TestApp;
let admin: string;

/** Runs the seeder on the test app's database file, as `npm run seed:demo -- …args` would. */
async function seedDemo(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    // The day of the test app's clock, so the campaign year is the one the app numbers in.
    const { stdout, stderr } = await run(process.execPath, ['scripts/seed-demo.mjs', '--date', '2026-11-22', ...args], {
      env: { ...process.env, DATABASE_URL: `file:${join(t.dir, 'test.db')}` },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.cookieFor('admin');
  await setSettings(t, admin, VALID_INVOICE_SETTINGS);
});
afterAll(async () => t.close());

/** The numbers F<year>-<n> of invoices and credit notes, as n. */
const numbersOf = (values: (string | null)[]) => values.filter((v): v is string => v !== null).map((v) => Number(v.split('-')[1]));

describe('the demo data seeder', () => {
  it('adds tablers and orders in every state, numbered from the real sequences, and says what it did', async () => {
    const seeded = await seedDemo('--orders', '500', '--tablers', '12', '--seed', '7');
    expect(seeded.stderr).toBe('');
    expect(seeded.code).toBe(0);
    expect(seeded.stdout).toMatch(
      /^Demo data added to file:.*test\.db in [\d.]+ s \(seed 7\):\n {2}12 tablers \(12 in all\)\n {2}500 orders, KP-2026-0001 to KP-2026-0500, /,
    );

    const rows = await t.db.select().from(orders).orderBy(asc(orders.id));
    expect(rows).toHaveLength(500);
    const names = (await t.db.select().from(tablers)).map((row) => {
      expect(row.searchName).toBe(tablerSearchName(row.name));
      return row.name;
    });
    expect(names).toHaveLength(12);
    // The order form's gate can tell every tabler apart.
    for (const [i, name] of names.entries()) for (const other of names.slice(i + 1)) expect(namesMatch(name, other), `${name} / ${other}`).toBe(false);

    expect(rows.map((o) => o.reference)).toEqual(rows.map((_, i) => `KP-2026-${String(i + 1).padStart(4, '0')}`));
    const issued = numbersOf([...rows.map((o) => o.invoiceNumber), ...rows.map((o) => o.creditNoteNumber)]).sort((a, b) => a - b);
    expect(issued).toEqual(issued.map((_, i) => i + 1));
    const counters = Object.fromEntries((await t.db.select().from(sequences)).map((s) => [`${s.name} ${s.year}`, s.value]));
    expect(counters).toEqual({ 'order 2026': 500, 'invoice 2026': issued.length });

    const states: Record<string, (o: Row) => boolean> = {
      'invoiced and paid': (o) => o.invoiceNumber !== null && o.paid,
      'invoiced and open': (o) => o.invoiceNumber !== null && !o.paid && !o.cancelled,
      'not invoiced': (o) => o.invoiceNumber === null,
      'paid without an invoice': (o) => o.invoiceNumber === null && o.paid,
      credited: (o) => o.cancelled,
      delivered: (o) => o.delivered,
      reminded: (o) => o.remindersSent > 0,
      'without a tabler': (o) => o.tablerId === null,
      'a business with a VAT id': (o) => o.customerVatId !== null,
      'a business with only a KvK number': (o) => o.customerKvkNumber !== null && o.customerVatId === null,
    };
    for (const [state, test] of Object.entries(states)) expect(rows.filter(test).length, state).toBeGreaterThan(0);
    for (const o of rows) {
      expect(o.searchText).toBe(orderSearchText(o));
      expect(o.postalCode).toMatch(/^886[12] [A-Z]{2}$/);
      expect(o.city).toBe('Harlingen');
      expect(o.email).toMatch(/@example\.(nl|com|org|net)$/);
      expect(o.createdAt >= '2026-11-01' && o.createdAt <= '2026-11-22T12:00:00.000Z').toBe(true);
      expect(o.paid).toBe(o.paidAt !== null);
      // Paid by hand, as the accountant's journal books it (docs/decisions/076): the demo has no bank or online payments.
      expect(o.paymentMethod).toBe(o.paid ? 'manual' : null);
      expect(o.delivered).toBe(o.deliveredAt !== null);
      // A business (docs/decisions/078) has a KvK number, some a VAT id too, each as the order form would store it.
      const business = /^(Bakkerij|Garage|Kapsalon|Installatiebedrijf|Zeilmakerij) /.test(o.name);
      expect(o.customerKvkNumber === null ? null : customerKvkNumber(o.customerKvkNumber), o.name).toBe(business ? o.customerKvkNumber : null);
      if (o.customerVatId !== null) expect(customerVatId(o.customerVatId)).toBe(o.customerVatId);
      if (!business) expect(o.customerVatId).toBeNull();
      expect(o.cancelled).toBe(o.creditNoteNumber !== null);
      if (o.creditNoteNumber) expect(o.invoiceNumber).not.toBeNull();
      if (o.invoiceNumber) expect(o.invoiceTotalCents).toBe(9075 * o.amount);
      if (o.invoiceDate) expect(o.invoiceDate >= o.createdAt).toBe(true);
    }
    expect(rows.some((o) => /\b(de|van der|van den) /.test(o.name))).toBe(true);
  });

  it('makes orders that search finds with the accents left out', async () => {
    const accented = (await t.db.select().from(orders)).find((o) => foldForSearch(o.name) !== o.name.toLowerCase());
    expect(accented, 'an order with an accented name').toBeDefined();
    const bare = foldForSearch(accented!.name);
    const found = (await t.request(`/orders?q=${encodeURIComponent(bare)}`, { cookie: admin })).json as OrderView[];
    expect(found.map((o) => o.id)).toContain(accented!.id);
    expect(found.every((o) => foldForSearch(o.name).includes(bare) || foldForSearch(o.tabler_name ?? '').includes(bare))).toBe(true);
  });

  it('refuses a database with orders, and with --force goes on where the numbers are', async () => {
    const refused = await seedDemo('--orders', '10');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/already holds 500 orders; add --force to add the demo orders to them\.\n$/);
    expect(await t.database.$count(orders)).toBe(500);

    const forced = await seedDemo('--orders', '20', '--tablers', '0', '--force');
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).toContain('20 orders, KP-2026-0501 to KP-2026-0520');
    expect(await t.database.$count(orders)).toBe(520);
    // The app's own next order and invoice follow on without a gap.
    const created = await t.request('/orders/create', {
      cookie: admin,
      body: { name: 'Na de demo', email: 'na@example.nl', phone: '0517-123456', address: 'Voorstraat 1', postal_code: '8861 BJ', city: 'Harlingen', amount: 1 },
    });
    expect(created.json).toEqual({ success: true, order_reference: 'KP-2026-0521', order_url: expect.stringMatching(/\/bestelling\/[A-Za-z0-9_-]{43}$/) });
    const issued = numbersOf((await t.db.select({ n: orders.invoiceNumber, c: orders.creditNoteNumber }).from(orders)).flatMap((o) => [o.n, o.c]));
    const [mine] = (await t.request('/orders?q=na%20de%20demo', { cookie: admin })).json as OrderView[];
    const sent = await t.request(`/orders/sendInvoice?id=${mine!.id}`, { cookie: admin, body: {} });
    expect(sent.json.invoice_number).toBe(`F2026-${String(Math.max(...issued) + 1).padStart(4, '0')}`);
  });

  it('refuses a count that is not a whole number', async () => {
    const refused = await seedDemo('--orders', 'veel');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe('--orders must be a whole number from 0 to 1,000,000\n');
  });
});
