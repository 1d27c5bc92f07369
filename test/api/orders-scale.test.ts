import type { Client, InArgs, InStatement } from '@libsql/client';
import { desc, eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, orders, tablers } from '../../src/db/schema';
import { orderSearchText, tablerSearchName } from '../../src/db/search-text';
import { formatDateShort } from '../../src/core/nl-format';
import { fillMissingSearchText, searchTextIsComplete } from '../../src/features/orders/order-search';
import { computeInvoiceAmounts } from '../../src/features/invoices/invoice-amounts';
import { CSV_COLUMNS, csvField, csvMoney, EXPORT_CHUNK_ROWS } from '../../src/features/orders/orders-csv';
import { ORDER_SORTS } from '../../src/features/orders/orders.schemas';
import type { OrderView } from '../../src/features/orders/orders.service';
import { setSettings, VALID_INVOICE_SETTINGS } from '../support/invoice-settings';
import { countLibsqlQueries, type QueryCounter } from '../support/query-counter';
import { createTestApp, type TestApp } from '../support/test-app';

/**
 * docs/decisions/034, orders at scale: search, paging and sorting run in SQL (a folded `search_text` column, a page
 * is one statement), and the CSV export streams in chunks of EXPORT_CHUNK_ROWS with the very bytes the
 * whole-file export gave.
 */

const MINUTE = 60_000;

const order = (tablerId: number | null, name: string, extra: Record<string, unknown> = {}) => ({
  tabler_id: tablerId,
  name,
  email: 'klant@example.nl',
  phone: '0517 123456',
  address: 'Voorstraat 1',
  postal_code: '8861 BJ',
  city: 'Harlingen',
  amount: 1,
  ...extra,
});

async function create(t: TestApp, cookie: string, body: Record<string, unknown>): Promise<OrderView> {
  const r = await t.request('/orders/create', { cookie, body });
  expect(r.json, JSON.stringify(r.json)).toMatchObject({ success: true });
  const [row] = (await t.request(`/orders?q=${encodeURIComponent(r.json.order_reference)}`, { cookie })).json as OrderView[];
  return row!;
}

/** Code-unit order of two texts, NULL first: SQLite's BINARY collation. */
function binary(a: string | null, b: string | null): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** An order's search text made from what GET /orders answers: name sorting follows it (folded name first). */
const searchTextOf = (o: OrderView) =>
  orderSearchText({ ...o, postalCode: o.postal_code, invoiceNumber: o.invoice_number, creditNoteNumber: o.credit_note_number });

const compare = {
  created_at: (a: OrderView, b: OrderView) => a.created_at.localeCompare(b.created_at, 'en'),
  reference: (a: OrderView, b: OrderView) => (a.reference < b.reference ? -1 : a.reference > b.reference ? 1 : 0),
  name: (a: OrderView, b: OrderView) => binary(searchTextOf(a), searchTextOf(b)),
  amount: (a: OrderView, b: OrderView) => a.amount - b.amount,
  paid: (a: OrderView, b: OrderView) => Number(a.paid) - Number(b.paid),
  tabler_name: (a: OrderView, b: OrderView) => binary(a.tabler_name && tablerSearchName(a.tabler_name), b.tabler_name && tablerSearchName(b.tabler_name)),
} satisfies Record<(typeof ORDER_SORTS)[number], (a: OrderView, b: OrderView) => number>;

describe('search, paging and sorting in SQL', () => {
  let t: TestApp;
  let admin: string;
  let wytze: number;
  let sjoerd: number;
  const made: Record<string, OrderView> = {};

  const list = async (query: string) => (await t.request(`/orders${query}`, { cookie: admin })).json as OrderView[];
  const names = async (query: string) => (await list(query)).map((o) => o.name).sort();

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.cookieFor('admin');
    await setSettings(t, admin, VALID_INVOICE_SETTINGS);
    wytze = (await t.request('/tablers/create', { cookie: admin, body: { name: 'Wytze Zeilmaker' } })).json.tabler.id;
    sjoerd = (await t.request('/tablers/create', { cookie: admin, body: { name: 'Sjoerd Ëlzinga' } })).json.tabler.id;
    const specs: [string, number | null, Record<string, unknown>][] = [
      ['Ëlsa Visser', wytze, { amount: 2, notes: '50% korting afgesproken' }],
      ['anna de Boer', sjoerd, { amount: 2, paid: true }],
      ['Anna de Boer', null, { amount: 1, email: 'anna@voorbeeld.example', notes: '500 korting? nee' }],
      ['André Bakker', wytze, { amount: 3, email: 'info@bakkerij.example', paid: true }],
      ['Zoë Hoekstra', sjoerd, { amount: 1, phone: '06-11223344', notes: 'code a_b' }],
      ['Bram van der Meer', null, { amount: 2, address: 'Noorderhaven 12', postal_code: '8862 AX', notes: 'code axb' }],
      ['Émile Dijkstra', wytze, { amount: 1, city: 'Midlum', notes: 'pad c:\\kerst' }],
      ['Ben Terpstra', sjoerd, { amount: 3, paid: true }],
      ['elsa Terpstra', wytze, { amount: 2 }],
    ];
    for (const [i, [name, tabler, extra]] of specs.entries()) {
      made[name] = await create(t, admin, order(tabler, name, extra));
      // Pairs share a moment, so sorting on created_at has ties for the id to break.
      if (i % 2 === 1) t.clock.advance(MINUTE);
    }
    // An invoice and a credit note number to search for.
    const invoiced = await t.request(`/orders/sendInvoice?id=${made['Ben Terpstra']!.id}`, { cookie: admin, body: {} });
    expect(invoiced.json).toMatchObject({ invoice_number: 'F2026-0001' });
    await t.request(`/orders/sendInvoice?id=${made['Émile Dijkstra']!.id}`, { cookie: admin, body: {} });
    const credited = await t.request(`/orders/creditInvoice?id=${made['Émile Dijkstra']!.id}`, { cookie: admin, body: {} });
    expect(credited.json).toMatchObject({ success: true, credit_note_number: 'F2026-0003' });
  });
  afterAll(async () => t.close());
  afterEach(() => expect(t.errors).toEqual([]));

  it('ignores accents and case on both sides', async () => {
    expect(await names('?q=elsa')).toEqual(['elsa Terpstra', 'Ëlsa Visser']);
    expect(await names('?q=%C3%8BLSA')).toEqual(['elsa Terpstra', 'Ëlsa Visser']);
    expect(await names('?q=zoe')).toEqual(['Zoë Hoekstra']);
    expect(await names('?q=andre%20bak')).toEqual(['André Bakker']);
    expect(await names('?q=%C3%A9mile')).toEqual(['Émile Dijkstra']);
  });

  it('searches every field of the order, its tabler, invoice and credit note number', async () => {
    expect(await names(`?q=${made['Zoë Hoekstra']!.reference}`)).toEqual(['Zoë Hoekstra']);
    expect(await names('?q=ANNA@VOORBEELD')).toEqual(['Anna de Boer']);
    expect(await names('?q=06-1122')).toEqual(['Zoë Hoekstra']);
    expect(await names('?q=noorderhaven')).toEqual(['Bram van der Meer']);
    expect(await names('?q=8862%20ax')).toEqual(['Bram van der Meer']);
    expect(await names('?q=midlum')).toEqual(['Émile Dijkstra']);
    expect(await names('?q=korting%20afgesproken')).toEqual(['Ëlsa Visser']);
    expect(await names('?q=zeilmaker')).toEqual(['André Bakker', 'elsa Terpstra', 'Émile Dijkstra', 'Ëlsa Visser'].sort());
    expect(await names('?q=sjoerd%20elz')).toEqual(['anna de Boer', 'Ben Terpstra', 'Zoë Hoekstra'].sort());
    expect(await names('?q=f2026-0001')).toEqual(['Ben Terpstra']);
    // The credit note's number, and the invoice it corrects.
    expect(await names('?q=F2026-0003')).toEqual(['Émile Dijkstra']);
    expect(await names('?q=F2026-0002')).toEqual(['Émile Dijkstra']);
  });

  it('takes %, _ and \\ literally, and never matches across two fields', async () => {
    expect(await names('?q=50%25')).toEqual(['Ëlsa Visser']);
    expect(await names('?q=a_b')).toEqual(['Zoë Hoekstra']);
    expect(await names('?q=c%3A%5Ckerst')).toEqual(['Émile Dijkstra']);
    expect(await names('?q=%25')).toEqual(['Ëlsa Visser']);
    // The name ends in 'bakker', the e-mail address starts with 'info': one text, two fields.
    expect(await names('?q=bakkerinfo')).toEqual([]);
    expect(await names('?q=bakker%20info')).toEqual([]);
  });

  it('keeps the search text of every writer equal to the one made from the row', async () => {
    const id = made['Bram van der Meer']!.id;
    const body = order(null, 'Bram van der Méér', { address: 'Noorderhaven 14', postal_code: '8862 AX', amount: 2, notes: 'Achterom' });
    expect((await t.request(`/orders/update?id=${id}`, { cookie: admin, body })).json).toEqual({ success: true });
    expect(await names('?q=bram%20van%20der%20meer')).toEqual(['Bram van der Méér']);
    expect(await names('?q=noorderhaven%2012')).toEqual([]);
    // An order updated after its invoice keeps its numbers in the text (numbers are appended in SQL).
    const ben = made['Ben Terpstra']!.id;
    await t.request(`/orders/update?id=${ben}`, { cookie: admin, body: order(sjoerd, 'Ben Terpstra', { amount: 3, paid: true, phone: '06-99887766' }) });
    expect(await names('?q=f2026-0001')).toEqual(['Ben Terpstra']);
    for (const row of await t.db.select().from(orders)) expect(row.searchText, row.name).toBe(orderSearchText(row));
    for (const row of await t.db.select().from(tablers)) expect(row.searchName, row.name).toBe(tablerSearchName(row.name));
    await expectSearchIndexInStep();
  });

  /** The trigram index agrees with the search texts, and finds what a LIKE over every row finds. */
  async function expectSearchIndexInStep() {
    // FTS5's own check: throws when an entry is missing, stale or extra.
    await t.database.run(sql`INSERT INTO orders_fts(orders_fts, rank) VALUES ('integrity-check', 1)`);
    for (const text of ['elsa', 'terpstra', 'kp-2026', 'f2026-000', '8862 ax', '50%', 'a_b', 'c:\\k', 'niemand']) {
      const indexed = await t.database.all<{ id: number }>(sql`SELECT rowid AS id FROM orders_fts WHERE orders_fts MATCH ${`"${text}"`} ORDER BY rowid`);
      const scanned = await t.database.all<{ id: number }>(sql`SELECT id FROM orders WHERE instr(search_text, ${text}) > 0 ORDER BY id`);
      expect(indexed, text).toEqual(scanned);
    }
  }

  it("finds a tabler's orders under the new name at once after a rename, no longer under the old", async () => {
    expect((await t.request(`/tablers/update?id=${wytze}`, { cookie: admin, body: { name: 'Wytze Hélder' } })).json).toMatchObject({ success: true });
    expect(await names('?q=helder')).toEqual(['André Bakker', 'elsa Terpstra', 'Émile Dijkstra', 'Ëlsa Visser'].sort());
    expect(await names('?q=zeilmaker')).toEqual([]);
  });

  it('sorts on every column both ways, ties broken by id in the same direction, page by page', async () => {
    const all = await list('');
    expect(all.length).toBe(9);
    for (const sort of ORDER_SORTS) {
      for (const dir of ['asc', 'desc'] as const) {
        const sign = dir === 'asc' ? 1 : -1;
        const expected = [...all].sort((a, b) => sign * (compare[sort](a, b) || a.id - b.id)).map((o) => o.id);
        expect(
          (await list(`?sort=${sort}&dir=${dir}`)).map((o) => o.id),
          `${sort} ${dir} unpaged`,
        ).toEqual(expected);
        const pages: number[] = [];
        for (let page = 1; page <= 4; page++) {
          const r = (await t.request(`/orders?sort=${sort}&dir=${dir}&page=${page}&per_page=4`, { cookie: admin })).json;
          expect(r, `${sort} ${dir} page ${page}`).toMatchObject({ total: 9, page, per_page: 4 });
          pages.push(...r.orders.map((o: OrderView) => o.id));
        }
        expect(pages, `${sort} ${dir} paged`).toEqual(expected);
      }
    }
    // Accents do not move a name to the end: 'Ëlsa' and 'Émile' among the e's, 'Zoë' last.
    expect((await list('?sort=name&dir=asc')).map((o) => o.name)).toEqual([
      'André Bakker',
      'Anna de Boer',
      'anna de Boer',
      'Ben Terpstra',
      'Bram van der Méér',
      'elsa Terpstra',
      'Ëlsa Visser',
      'Émile Dijkstra',
      'Zoë Hoekstra',
    ]);
    // No sort: newest first, the later id first within one moment.
    expect((await list('')).map((o) => o.id)).toEqual([...all].sort((a, b) => -(compare.created_at(a, b) || a.id - b.id)).map((o) => o.id));
  });

  it('combines filters with search and paging, over REST and tRPC alike', async () => {
    const query = { paid: 'false', tabler_id: String(wytze), q: 'HARLINGEN', sort: 'name', dir: 'asc' };
    const whole = await list(`?${new URLSearchParams(query)}`);
    expect(whole.map((o) => o.name)).toEqual(['elsa Terpstra', 'Ëlsa Visser']);
    const second = (await t.request(`/orders?${new URLSearchParams({ ...query, page: '2', per_page: '1' })}`, { cookie: admin })).json;
    expect(second).toEqual({ orders: [whole[1]], total: 2, page: 2, per_page: 1 });
    const twin = await t.request(`/trpc/orders.page?input=${encodeURIComponent(JSON.stringify({ ...query, page: '2', per_page: '1' }))}`, { cookie: admin });
    expect(twin.json.result.data).toEqual(second);
    const beyond = (await t.request(`/orders?${new URLSearchParams({ ...query, page: '3', per_page: '1' })}`, { cookie: admin })).json;
    expect(beyond).toEqual({ orders: [], total: 2, page: 3, per_page: 1 });
    expect((await t.request('/orders?cancelled=true&q=dijkstra&page=1', { cookie: admin })).json).toMatchObject({
      total: 1,
      orders: [{ name: 'Émile Dijkstra' }],
    });
    expect((await t.request('/orders?cancelled=false&q=dijkstra&page=1', { cookie: admin })).json).toMatchObject({ total: 0, orders: [] });
    expect(await names('?q=%20%20')).toHaveLength(9);
  });

  it('fills the search text of rows that have none (older than the column), once', async () => {
    await t.db.update(orders).set({ searchText: null });
    await t.db.update(tablers).set({ searchName: null }).where(eq(tablers.id, sjoerd));
    const complete = async () => (await t.db.select({ yes: sql<number>`${searchTextIsComplete()}` }).from(sql`(SELECT 1)`))[0]!.yes;
    expect(await complete()).toBe(0);
    expect(await names('?q=elsa')).toEqual([]);
    expect(await fillMissingSearchText(t.db)).toBe(9);
    expect(await complete()).toBe(1);
    expect(await fillMissingSearchText(t.db)).toBe(0);
    for (const row of await t.db.select().from(orders)) expect(row.searchText).toBe(orderSearchText(row));
    expect(await names('?q=elsa')).toEqual(['elsa Terpstra', 'Ëlsa Visser']);
    expect(await names('?q=sjoerd%20elz')).toEqual(['anna de Boer', 'Ben Terpstra', 'Zoë Hoekstra'].sort());
    await expectSearchIndexInStep();
  });

  it('keeps the trigram index in step when an order is deleted', async () => {
    const id = made['Bram van der Meer']!.id;
    expect((await t.request(`/orders/delete?id=${id}`, { cookie: admin, body: {} })).json).toEqual({ success: true });
    expect(await names('?q=noorderhaven')).toEqual([]);
    await expectSearchIndexInStep();
  });
});

/**
 * The export as it was made before it streamed: the whole file in memory from GET /orders' list. Every
 * order here is priced at the seeded € 75 and 21 % (its invoice too, made at that price).
 */
function wholeFileCsv(list: readonly OrderView[]): string {
  const yesNo = (flag: boolean) => (flag ? 'Ja' : 'Nee');
  const lines = [CSV_COLUMNS.map(csvField).join(';')];
  for (const o of list) {
    const fields = [o.reference, o.tabler_name ?? 'Onbekend', o.name, o.email, o.phone, o.address, o.postal_code, o.city, o.amount, o.notes ?? ''];
    fields.push(yesNo(o.paid), yesNo(o.invoice_sent), o.invoice_number ?? '', formatDateShort(new Date(o.created_at)));
    const sums = o.cancelled
      ? { netCents: 0, totalCents: 0 }
      : computeInvoiceAmounts(o.amount, 7500, [{ label: 'Kerstpakket', share_percent: 100, vat_rate: 21 }]);
    fields.push(csvMoney(sums.netCents), csvMoney(sums.totalCents), o.paid && o.paid_at ? formatDateShort(new Date(o.paid_at)) : '');
    const partCents = Math.round(o.part_paid * 100);
    fields.push(yesNo(o.cancelled), yesNo(o.delivered), csvMoney(o.paid ? Math.max(sums.totalCents, partCents) : o.cancelled ? 0 : partCents));
    lines.push(fields.map(csvField).join(';'));
  }
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

describe('thousands of orders', () => {
  const BULK = 2_500;
  let t: TestApp;
  let admin: string;
  let queries: QueryCounter;
  let tabler: number;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.cookieFor('admin');
    await setSettings(t, admin, VALID_INVOICE_SETTINGS);
    tabler = (await t.request('/tablers/create', { cookie: admin, body: { name: 'Jan de Tabler' } })).json.tabler.id;
    // Fields a spreadsheet or a CSV reader trips over, made through the API.
    const tricky = [
      { name: 'Jansen, Piet', notes: 'Graag na 17:00; niet eerder' },
      { name: 'Anne "Annie" de Vries', notes: 'Bel aan\nbij de buren\r\nals niemand thuis is' },
      { name: 'Émile Çelik-Ångström', notes: 'Crème brûlée, Zoë & Łukasz' },
      { name: '=SUM(A1:A9)*10', notes: '=HYPERLINK("http://example.com","klik")' },
      { name: '@Ëlsa', notes: '-2+3', phone: '+31 6 1234 5678' },
    ];
    for (const [i, o] of tricky.entries())
      await create(t, admin, order(i % 2 ? tabler : null, o.name, { notes: o.notes, phone: o.phone ?? '0517-123456', paid: i === 1 }));
    await t.request(`/orders/sendInvoice?id=${(await t.db.select().from(orders).where(eq(orders.name, 'Jansen, Piet')))[0]!.id}`, { cookie: admin, body: {} });
    // The bulk straight into the table, seven orders to a moment, so chunk boundaries fall inside a moment.
    const start = Date.parse('2026-11-01T08:00:00.000Z');
    const rows = Array.from({ length: BULK }, (_, i) => {
      const fields = {
        reference: `KP-2025-${String(i + 1).padStart(4, '0')}`,
        tablerId: i % 3 === 0 ? tabler : null,
        name: `Klant ${i + 1}`,
        email: `klant${i + 1}@example.nl`,
        phone: '0517 000000',
        address: `Dijk ${i + 1}`,
        postalCode: '8861 AA',
        city: i % 5 === 0 ? 'Midlum' : 'Harlingen',
        amount: (i % 10) + 1,
        notes: i % 7 === 0 ? `Notitie; "${i}"` : null,
        invoiceNumber: null,
        creditNoteNumber: null,
        paid: i % 4 === 0,
        createdAt: new Date(start + Math.floor(i / 7) * 37 * MINUTE).toISOString(),
        updatedAt: new Date(start).toISOString(),
      };
      return { ...fields, searchText: orderSearchText(fields) };
    });
    for (let i = 0; i < rows.length; i += 200) await t.db.insert(orders).values(rows.slice(i, i + 200));
    // The client under the app's Drizzle, counted from here on.
    queries = countLibsqlQueries((t.database as typeof t.database & { $client: Client }).$client);
  });
  afterAll(async () => t.close());
  afterEach(() => expect(t.errors).toEqual([]));

  const ordersStatements = () => queries.statements.filter((s) => /\bfrom "orders"/i.test(s));

  it('takes a double quote literally in a search through the trigram index', async () => {
    const found = (await t.request(`/orders?q=${encodeURIComponent('"annie" de')}`, { cookie: admin })).json as OrderView[];
    expect(found.map((o) => o.name)).toEqual(['Anne "Annie" de Vries']);
    expect((await t.request(`/orders?q=${encodeURIComponent('annie"')}`, { cookie: admin })).json).toHaveLength(1);
  });

  it('answers a page in one statement on orders, whose count SQLite runs once, searching the trigram index once', async () => {
    // Each query with the number of times its statement searches the trigram index, and how it counts: a filter of
    // flags alone sums the kept counts (docs/decisions/074), any other counts the matching orders.
    for (const [query, searches, counts] of [
      ['page=1&per_page=50', 0, 'kept'],
      ['page=3&per_page=20&paid=false&sort=amount&dir=asc', 0, 'kept'],
      ['page=2&per_page=50&sort=name&dir=asc&q=klant%2012', 1, 'counted'],
      ['page=2&per_page=200&sort=tabler_name&dir=desc&paid=true&q=harlingen', 1, 'counted'],
      ['page=1&per_page=20&q=kl', 0, 'counted'],
      ['page=1&per_page=20&tabler_id=none&paid=true', 0, 'counted'],
    ] as const) {
      queries.reset();
      const r = await t.request(`/orders?${query}`, { cookie: admin });
      expect(r.status).toBe(200);
      const [page, ...more] = ordersStatements();
      expect(more, query).toEqual([]);
      expect(page, query).not.toContain('; ');
      expect(page, query).toMatch(/\blimit\b/i);
      expect(page!.match(/count\(\*\)/gi) ?? [], query).toHaveLength(counts === 'kept' ? 0 : 1);
      expect(page!.match(/from "order_counts"/gi) ?? [], query).toHaveLength(counts === 'kept' ? 1 : 0);
      expect(page!.match(/orders_fts MATCH/g) ?? [], query).toHaveLength(searches);
    }
    const found = (await t.request('/orders?page=2&per_page=10&sort=name&dir=asc&q=klant%2012', { cookie: admin })).json;
    // 'Klant 12', 'Klant 120'…'Klant 129' and 'Klant 1200'…'Klant 1299': 111 in all. By name, the first page
    // is 'Klant 12', 'Klant 120', 'Klant 1200'…'Klant 1207'; the second goes on from there.
    expect(found.total).toBe(111);
    expect(found.orders.map((o: OrderView) => o.name)).toEqual([
      'Klant 1208',
      'Klant 1209',
      'Klant 121',
      'Klant 1210',
      'Klant 1211',
      'Klant 1212',
      'Klant 1213',
      'Klant 1214',
      'Klant 1215',
      'Klant 1216',
    ]);
    // A page past the end has no row to carry the count: it is counted apart.
    queries.reset();
    expect((await t.request('/orders?page=40&per_page=50&sort=name&dir=asc&q=klant%2012', { cookie: admin })).json).toEqual({
      orders: [],
      total: 111,
      page: 40,
      per_page: 50,
    });
    expect(ordersStatements()).toHaveLength(2);
    expect(ordersStatements()[1]).toMatch(/^select count\(\*\) from "orders"/i);
  });

  it("builds each shape of page once and answers it with each request's own values", async () => {
    const page = async (query: string) => (await t.request(`/orders?${query}`, { cookie: admin })).json as { orders: OrderView[]; total: number };
    /** What the page should hold, straight from the table: the names of the page by name, and the count. */
    const expected = async (condition: ReturnType<typeof sql>, offset: number, limit: number) => {
      const rows = await t.db.select({ name: orders.name }).from(orders).where(condition).orderBy(orders.searchText, orders.id);
      return { names: rows.slice(offset, offset + limit).map((r) => r.name), total: rows.length };
    };
    const shown = (r: { orders: OrderView[]; total: number }) => ({ names: r.orders.map((o) => o.name), total: r.total });
    // The same filters, sort and kind of search one after another, with other values: nothing of an earlier answer is kept.
    for (const [paid, text, pageNumber] of [
      ['true', 'klant 12', 1],
      ['false', 'klant 24', 2],
      ['true', 'dijk 7', 3],
    ] as const) {
      const r = await page(`page=${pageNumber}&per_page=3&sort=name&dir=asc&paid=${paid}&q=${encodeURIComponent(text)}`);
      const want = await expected(sql`${orders.paid} = ${paid === 'true' ? 1 : 0} AND ${orders.searchText} LIKE ${`%${text}%`}`, (pageNumber - 1) * 3, 3);
      expect(want.total, text).toBeGreaterThan(6);
      expect(shown(r), text).toEqual(want);
    }
    // The short search (no trigram) with the tabler filter likewise.
    for (const [tablerFilter, condition] of [
      [String(tabler), sql`${orders.tablerId} = ${tabler}`],
      ['none', sql`${orders.tablerId} IS NULL`],
    ] as const) {
      const r = await page(`page=2&per_page=4&sort=name&dir=asc&tabler_id=${tablerFilter}&q=7`);
      const want = await expected(sql`${condition} AND ${orders.searchText} LIKE '%7%'`, 4, 4);
      expect(want.total, tablerFilter).toBeGreaterThan(8);
      expect(shown(r), tablerFilter).toEqual(want);
    }
  });

  /** The statements on orders a GET of `path` sends, as Drizzle sends them ({ sql, args }). */
  async function statementsOnOrders(path: string): Promise<{ sql: string; args: InArgs }[]> {
    const client = (t.database as typeof t.database & { $client: Client }).$client;
    const sent: InStatement[] = [];
    const execute = client.execute.bind(client) as (stmt: InStatement) => ReturnType<Client['execute']>;
    client.execute = ((stmt: InStatement) => {
      sent.push(stmt);
      return execute(stmt);
    }) as Client['execute'];
    try {
      expect((await t.request(path, { cookie: admin })).status, path).toBe(200);
    } finally {
      client.execute = execute as Client['execute'];
    }
    return (sent as { sql: string; args: InArgs }[]).filter((stmt) => /\bfrom "orders"/i.test(stmt.sql));
  }

  /** The plan rows of one statement. */
  async function explain({ sql: text, args }: { sql: string; args: InArgs }) {
    const client = (t.database as typeof t.database & { $client: Client }).$client;
    return (await client.execute({ sql: `EXPLAIN QUERY PLAN ${text}`, args })).rows;
  }

  /** The query plans of the statements a GET of `path` sends on orders, one list of plan lines per statement. */
  async function plansOf(path: string): Promise<string[][]> {
    const plans: string[][] = [];
    for (const stmt of await statementsOnOrders(path)) plans.push((await explain(stmt)).map((row) => String(row.detail)));
    return plans;
  }

  it('finds a searched page through the trigram index and sorts by name along an index, reading no order it does not show', async () => {
    // Searched (three characters or more): the orders are fetched by rowid from the trigram index, searched once.
    for (const query of ['page=1&per_page=50&sort=name&dir=asc&q=klant%2012', 'page=2&per_page=50&q=dijk']) {
      const [plan, ...more] = await plansOf(`/orders?${query}`);
      expect(more).toEqual([]);
      expect(
        plan!.filter((line) => /^SCAN orders\b/.test(line)),
        `${query}: ${plan!.join(' | ')}`,
      ).toEqual([]);
      expect(
        plan!.filter((line) => line.includes('orders_fts VIRTUAL TABLE')),
        `${query}: ${plan!.join(' | ')}`,
      ).toHaveLength(1);
      // The matching tablers and their orders are the club's own, each found by an index that leads with the club
      // (docs/decisions/075).
      expect(
        plan!.filter((line) => /\b(tablers|tablers_orders)\b/.test(line) && /^(SCAN|SEARCH)/.test(line)),
        `${query}: ${plan!.join(' | ')}`,
      ).toEqual([
        'SEARCH tablers_orders USING COVERING INDEX orders_club_tabler_idx (club_id=? AND tabler_id=?)',
        expect.stringMatching(/^SEARCH tablers USING (COVERING )?INDEX \w+ \(club_id=\?\)$/),
        // The shown orders' tablers' names.
        'SEARCH tablers USING INTEGER PRIMARY KEY (rowid=?) LEFT-JOIN',
      ]);
    }
    // By name, unsearched: the rows come in order from the index on the search text (no sort of every order).
    // The page's ids come from that index alone; only the page's own 50 rows are sorted again (docs/decisions/072).
    for (const dir of ['asc', 'desc']) {
      const plan = await pageplanOf(`/orders?page=3&per_page=50&sort=name&dir=${dir}`);
      const shown = plan.map((line) => `${line.depth}:${line.detail}`).join(' | ');
      expect(shown).toMatch(/^0:CO-ROUTINE page \| 1:SEARCH orders USING COVERING INDEX orders_search_text_idx \(club_id=\?\)/);
      expect(
        plan.filter((line) => line.depth > 0 && line.detail.includes('TEMP B-TREE')),
        shown,
      ).toEqual([]);
    }
  });

  /** The plan of the one statement on orders a GET of `path` sends: each line with its depth (0: the outer statement). */
  async function pageplanOf(path: string): Promise<{ depth: number; detail: string }[]> {
    const onOrders = await statementsOnOrders(path);
    expect(onOrders, path).toHaveLength(1);
    const rows = await explain(onOrders[0]!);
    const depthOf = new Map<number, number>([[0, -1]]);
    return rows.map((row) => {
      const depth = depthOf.get(Number(row.parent))! + 1;
      depthOf.set(Number(row.id), depth);
      return { depth, detail: String(row.detail) };
    });
  }

  it('reads every shape of page through an index that leads with the club, and sorts no more than the page', async () => {
    const deep = Math.floor(((BULK + 5) / 50) * 0.9);
    // Every sort's order is an index's (club, key, id); by tabler the key is kept on the order (docs/decisions/074).
    const unsearched = [
      'page=1&per_page=50',
      `page=${deep}&per_page=50`,
      ...ORDER_SORTS.flatMap((sort) =>
        ['asc', 'desc'].flatMap((dir) => [`page=1&per_page=50&sort=${sort}&dir=${dir}`, `page=${deep}&per_page=50&sort=${sort}&dir=${dir}`]),
      ),
      'page=1&per_page=50&paid=false',
      'page=5&per_page=50&paid=true&sort=name&dir=asc',
      `page=3&per_page=50&tabler_id=${tabler}`,
      'page=1&per_page=50&tabler_id=none&sort=reference&dir=asc',
      'page=1&per_page=50&delivered=false&invoice_sent=false&cancelled=false',
      'page=1&per_page=50&overdue=true',
    ];
    // Newest first and by name, the page's ids come from the index alone whatever flags filter them (docs/decisions/074).
    const covered = [
      `page=${deep}&per_page=50`,
      'page=1&per_page=50&paid=false',
      'page=5&per_page=50&paid=true&sort=name&dir=asc',
      `page=${deep}&per_page=50&sort=name&dir=desc`,
      'page=1&per_page=50&delivered=false&invoice_sent=false&cancelled=false',
      'page=1&per_page=50&overdue=true',
    ];
    // Searches, and the overdue filter's range of invoice dates: the matches their index finds are sorted.
    const narrowed = [
      'page=1&per_page=50&overdue=true&sort=amount&dir=desc',
      'page=1&per_page=50&q=klant%201',
      'page=3&per_page=50&sort=amount&dir=desc&q=klant%201',
      `page=2&per_page=50&sort=tabler_name&dir=asc&q=harlingen`,
      'page=1&per_page=50&q=niemand-heet-zo',
      'page=1&per_page=50&sort=name&dir=desc&q=kl',
    ];
    for (const query of [...unsearched, ...narrowed]) {
      const plan = await pageplanOf(`/orders?${query}`);
      const shown = `${query}: ${plan.map((line) => `${line.depth}:${line.detail}`).join(' | ')}`;
      // Never the whole table: every read of orders goes by the club's index or by id.
      expect(
        plan.filter((line) => /^SCAN orders\b/.test(line.detail)),
        shown,
      ).toEqual([]);
      const reads = plan.filter((line) => /^SEARCH orders\b/.test(line.detail));
      expect(reads.length, shown).toBeGreaterThan(0);
      for (const read of reads) expect(read.detail, shown).toMatch(/ USING (COVERING )?INDEX orders_\w+ \(club_id=\?|USING INTEGER PRIMARY KEY \(rowid=\?\)/);
      if (covered.includes(query))
        expect(reads[0]!.detail, shown).toMatch(/USING COVERING INDEX orders_(created|created_filters|search_text)_idx \(club_id=\?\)/);
      // The overdue count is one range of the dates' index.
      if (query.includes('overdue'))
        expect(reads.map((read) => read.detail).join(' | '), shown).toContain(
          'USING COVERING INDEX orders_invoice_date_idx (club_id=? AND paid=? AND cancelled=? AND invoice_date<?)',
        );
      // Only the page itself (its 50 rows, at the top) is sorted when its order is an index's.
      if (unsearched.includes(query))
        expect(
          plan.filter((line) => line.depth > 0 && line.detail.includes('TEMP B-TREE')),
          shown,
        ).toEqual([]);
    }
  });

  async function exportCsv(query = '') {
    const response = await t.app.request(`http://127.0.0.1/orders/export.csv${query}`, { headers: { cookie: admin } });
    expect(response.status).toBe(200);
    return response;
  }

  it('streams the CSV with the very bytes of the whole-file export, for every filter', async () => {
    for (const query of ['', '?q=klant%201', `?paid=false&tabler_id=${tabler}`, '?q=%C3%ABlsa', '?invoice_sent=false&q=midlum', '?q=niemand-heet-zo']) {
      const list = (await t.request(`/orders${query}`, { cookie: admin })).json as OrderView[];
      const bytes = new Uint8Array(await (await exportCsv(query)).arrayBuffer());
      expect(Buffer.from(bytes).equals(Buffer.from(wholeFileCsv(list), 'utf8')), `export${query} (${list.length} orders)`).toBe(true);
    }
    const [entry] = await t.db.select().from(auditLog).where(eq(auditLog.action, 'orders.exported')).orderBy(desc(auditLog.id)).limit(1);
    expect(JSON.parse(entry!.details)).toEqual({ filters: { q: 'niemand-heet-zo' }, rows: 0 });
  });

  it('sends the first orders before it reads the last', async () => {
    const total = BULK + 5;
    const chunks = Math.ceil(total / EXPORT_CHUNK_ROWS);
    expect(chunks).toBeGreaterThanOrEqual(3);
    queries.reset();
    const reader = (await exportCsv()).body!.getReader();
    const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
    const chunkQueries = () => ordersStatements().filter((s) => /\blimit\b/i.test(s)).length;
    let text = decoder.decode((await reader.read()).value, { stream: true });
    expect(text).toBe(`\uFEFF${CSV_COLUMNS.join(';')}\r\n`);
    text += decoder.decode((await reader.read()).value, { stream: true });
    expect(text.split('\r\n').length).toBeGreaterThan(EXPORT_CHUNK_ROWS / 2);
    // The first orders are out; at most the next chunk is being read ahead, the last one is not.
    expect(chunkQueries()).toBeLessThan(chunks);
    for (let next = await reader.read(); !next.done; next = await reader.read()) text += decoder.decode(next.value, { stream: true });
    expect(chunkQueries()).toBe(chunks);
    // One count for the audit entry, then the chunks: never every order in one statement.
    expect(ordersStatements().filter((s) => !/\blimit\b/i.test(s))).toEqual([expect.stringMatching(/^select count\(\*\) from "orders"/i)]);
    expect(text).toBe(wholeFileCsv((await t.request('/orders', { cookie: admin })).json));
    const [entry] = await t.db.select().from(auditLog).where(eq(auditLog.action, 'orders.exported')).orderBy(desc(auditLog.id)).limit(1);
    expect(JSON.parse(entry!.details)).toEqual({ filters: {}, rows: total });
  });

  it('fills thousands of missing search texts in batches of 500, one statement each', async () => {
    const before = new Map((await t.db.select({ id: orders.id, searchText: orders.searchText }).from(orders)).map((o) => [o.id, o.searchText]));
    await t.db.update(orders).set({ searchText: null });
    queries.reset();
    expect(await fillMissingSearchText(t.db)).toBe(BULK + 5);
    expect(queries.statements.filter((s) => /^update "orders"/i.test(s))).toHaveLength(Math.ceil((BULK + 5) / 500));
    const after = new Map((await t.db.select({ id: orders.id, searchText: orders.searchText }).from(orders)).map((o) => [o.id, o.searchText]));
    expect(after).toEqual(before);
  });
});

describe('the totals at any size', () => {
  it('sums from one narrow index, never from the wide order rows', async () => {
    // An app of its own: the EXPLAINs below run on the pool's connections, and an aggregate statement
    // libsql has not finalized yet keeps its read lock, which would block the writes of other tests.
    const t = await createTestApp();
    try {
      const admin = await t.cookieFor('admin');
      const client = (t.database as typeof t.database & { $client: Client }).$client;
      const sent: InStatement[] = [];
      const { execute } = client;
      // Drizzle sends each statement as one { sql, args } object.
      const run = execute as (stmt: InStatement) => ReturnType<typeof execute>;
      client.execute = ((stmt: InStatement) => {
        if (typeof stmt !== 'string' && /\bfrom "orders"/i.test(stmt.sql)) sent.push(stmt);
        return run.call(client, stmt);
      }) as typeof execute;
      expect((await t.request('/orders/totals', { cookie: admin })).status).toBe(200);
      client.execute = execute;
      // The sums and the leaderboard in one pass, and the three days' figures (docs/decisions/072).
      expect(sent.length).toBe(4);
      for (const stmt of sent) {
        const { sql: text, args } = stmt as { sql: string; args: InArgs };
        const plan = (await client.execute({ sql: `EXPLAIN QUERY PLAN ${text}`, args })).rows.map((row) => String(row.detail));
        expect(plan.join(' | ')).toMatch(/USING COVERING INDEX orders_totals_idx/);
        // The sums and leaderboard group in the index's order: no sorter (docs/decisions/075).
        if (/group by "orders"\."tabler_id"/.test(text)) expect(plan.join(' | ')).not.toMatch(/TEMP B-TREE/);
        expect(
          plan.filter((line) => /^SCAN orders$/.test(line)),
          plan.join(' | '),
        ).toEqual([]);
      }
    } finally {
      await t.close();
    }
  });
});
