import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { asc, count, desc, eq } from 'drizzle-orm';
import type { Browser, BrowserContext, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, tablers } from '../../src/db/schema';
import { blockingAxeViolations } from './axe';
import { launchChromium, startTestServer, VIEWPORTS, signIn as signInAs, openWatchedPage, screenshot } from './browser';
import { SORT_COLUMNS } from '../../src/features/orders/orders.service';

/**
 * docs/decisions/034: the Management page with 50,000 orders, in Chromium against the real Node server. The
 * orders tab shows one page of orders.page at a time, sorted on the server; filters, search text, sort,
 * page and the open tab live in the URL, so a reload and Back keep them; and the JSON the page loads
 * stays within 150 KB (it was 26.5 MB when the tab loaded every order), at 1280 and at 375 px.
 */

let browser: Browser;
let server: Awaited<ReturnType<typeof startTestServer>>;
const dataDir = mkdtempSync(join(tmpdir(), 'kerstactie-scale-'));

const ADMIN_PASSWORD = 'e2e-admin-password';
const TOTAL = 50_000;
const PER_PAGE = 50;
/** docs/decisions/035's budget for the JSON the page downloads (the bodies of its /trpc answers), in bytes. */
const JSON_BUDGET = 150_000;
/** Made through the API, as the order form makes them: a name the demo data does not hold, to search for. */
const SEARCHED = 'Ytje Ypma';
const SEARCHED_ORDERS = 3;

/** What the database says the table should show: the same order as the server's SQL (orders.service.ts). */
const expected = { newest: '', firstByName: '', lastByName: '', open: 0, notCredited: 0 };

beforeAll(async () => {
  // The demo seeder (`npm run seed:demo`) fills the data folder before the server opens it: a campaign of
  // made-up orders in every state (invoiced, paid, reminded, credited), with their search text, in seconds.
  await promisify(execFile)(process.execPath, ['scripts/seed-demo.mjs', '--orders', String(TOTAL - SEARCHED_ORDERS), '--tablers', '40'], {
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
  });
  server = await startTestServer({ DATA_DIR: dataDir });
  browser = await launchChromium();
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page);
  const [tabler] = await server.deps.db.select({ id: tablers.id }).from(tablers).limit(1);
  for (let i = 0; i < SEARCHED_ORDERS; i++) {
    const status = await page.evaluate(
      async (body) => (await fetch('/orders/create', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })).status,
      {
        tabler_id: tabler!.id,
        name: SEARCHED,
        email: `ypma${i}@example.nl`,
        phone: '0517 123456',
        address: 'Noorderhaven 1',
        postal_code: '8861 AL',
        city: 'Harlingen',
        amount: 2,
      },
    );
    expect(status).toBe(200);
  }
  await context.close();

  const db = server.deps.db;
  const reference = async (...order: ReturnType<typeof asc>[]) =>
    (
      await db
        .select({ r: orders.reference })
        .from(orders)
        .orderBy(...order)
        .limit(1)
    )[0]!.r;
  const byName = SORT_COLUMNS.name;
  expected.newest = await reference(desc(orders.createdAt), desc(orders.id));
  expected.firstByName = await reference(asc(byName), asc(orders.id));
  expected.lastByName = await reference(desc(byName), desc(orders.id));
  expected.open = (await db.select({ n: count() }).from(orders).where(eq(orders.paid, false)))[0]!.n;
  expected.notCredited = (await db.select({ n: count() }).from(orders).where(eq(orders.cancelled, false)))[0]!.n;
  expect((await db.select({ n: count() }).from(orders))[0]!.n).toBe(TOTAL);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

function signIn(page: Page) {
  return signInAs(page, server.url, 'admin', ADMIN_PASSWORD);
}

/**
 * Counts the bytes of the page's /trpc answers (their bodies, as the browser received them) from now
 * on; the returned function stops counting and answers the sum.
 */
function countJsonBytes(page: Page): () => Promise<number> {
  const bodies: Promise<number>[] = [];
  const onResponse = (response: Response) => {
    if (new URL(response.url()).pathname.startsWith('/trpc/')) bodies.push(response.body().then((body) => body.length));
  };
  page.on('response', onResponse);
  return async () => {
    page.off('response', onResponse);
    return (await Promise.all(bodies)).reduce((sum, n) => sum + n, 0);
  };
}

const rows = (page: Page) => page.locator('tr[data-order]');
const cards = (page: Page) => page.locator('[data-order-card]');
/** The pager above the list (another one repeats it under a long page). */
const pager = (page: Page) => page.getByRole('navigation', { name: 'Paginering', exact: true });
const pageStatus = (page: Page) => pager(page).locator('[data-slot=page-status]').textContent();
const nextPage = (page: Page) => pager(page).getByRole('button', { name: 'Volgende' }).click();
const ordersCount = (page: Page) => page.locator('[data-slot=orders-count]').textContent();
const column = (page: Page, name: string) => page.getByRole('columnheader', { name, exact: true });
/** The URL's query as an object, to compare with toEqual. */
const query = (page: Page) => Object.fromEntries(new URL(page.url()).searchParams);
const nl = (n: number) => new Intl.NumberFormat('nl-NL').format(n);
const pagesOf = (n: number) => nl(Math.ceil(n / PER_PAGE));

/** Opens the orders tab by its URL, and answers the JSON bytes and the milliseconds until the table showed. */
async function openOrdersTab(page: Page, rowLocator: (page: Page) => ReturnType<typeof rows>) {
  const stop = countJsonBytes(page);
  const started = performance.now();
  await page.goto(`${server.url}/admin/management?tab=orders`);
  await rowLocator(page)
    .nth(PER_PAGE - 1)
    .waitFor();
  const tableMs = Math.round(performance.now() - started);
  // Everything the page asks for on opening: the totals, their charts, the tablers, the readiness.
  await page.locator('[data-slot=campaign-charts]').waitFor();
  await page.waitForLoadState('networkidle');
  return { bytes: await stop(), tableMs };
}

async function expectAxeClean(page: Page, where: string) {
  // Not over a button: axe would measure its hover colour, not the one the page shows.
  await page.mouse.move(0, 0);
  expect(await blockingAxeViolations(page, where)).toBe('');
}

describe('the Management page with 50,000 orders at 1280 px', () => {
  let context: BrowserContext;
  let page: Page;
  let pageErrors: string[];

  beforeAll(async () => {
    ({ context, page, errors: pageErrors } = await openWatchedPage(browser, { viewport: VIEWPORTS.desktop }));
    await signIn(page);
  });

  afterAll(async () => {
    await context?.close();
  });

  it('shows page 1 of 1.000 with 50 rows, newest first, and loads at most 150 KB of JSON', async () => {
    const { bytes, tableMs } = await openOrdersTab(page, rows);
    console.info(`management, 50,000 orders, 1280 px: ${bytes} bytes of JSON, table after ${tableMs} ms`);
    expect(bytes).toBeLessThanOrEqual(JSON_BUDGET);
    expect(await rows(page).count()).toBe(PER_PAGE);
    expect(await pageStatus(page)).toBe('Pagina 1 van 1.000');
    expect(await ordersCount(page)).toBe('50.000 bestellingen');
    // The totals leave credited orders out; the table lists them.
    expect(await page.locator('[data-stat="orders"] [data-slot=stat-value]').textContent()).toBe(nl(expected.notCredited));
    expect(await page.getByRole('tab', { name: 'Bestellingen' }).getAttribute('aria-selected')).toBe('true');
    // Newest first.
    expect(await column(page, 'Bestelling').getAttribute('aria-sort')).toBe('descending');
    expect(await column(page, 'Klant').getAttribute('aria-sort')).toBe('none');
    expect(await rows(page).first().getAttribute('data-order')).toBe(expected.newest);
    await expectAxeClean(page, 'orders tab with 50,000 orders, 1280 px');
    await screenshot(page, 'management-scale-desktop.png');
    await screenshot(page, 'management-scale-desktop-full.png', { fullPage: true });
  });

  it('sorts by customer name on the server: ascending, then descending', async () => {
    const klant = column(page, 'Klant');
    await klant.getByRole('button', { name: 'Klant' }).click();
    await expect.poll(() => klant.getAttribute('aria-sort')).toBe('ascending');
    expect(await column(page, 'Bestelling').getAttribute('aria-sort')).toBe('none');
    expect(query(page)).toEqual({ tab: 'orders', sort: 'name' });
    await expect.poll(() => rows(page).first().getAttribute('data-order')).toBe(expected.firstByName);
    // The page stays where it was scrolled to (the table is far below the top), not back at the top.
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);

    await klant.getByRole('button', { name: 'Klant' }).click();
    await expect.poll(() => klant.getAttribute('aria-sort')).toBe('descending');
    expect(query(page)).toEqual({ tab: 'orders', sort: 'name', dir: 'desc' });
    await expect.poll(() => rows(page).first().getAttribute('data-order')).toBe(expected.lastByName);
    expect(await pageStatus(page)).toBe('Pagina 1 van 1.000');
  });

  it('searches by name: the list narrows and q goes into the URL', async () => {
    await page.getByLabel('Zoeken').fill('ypma');
    await expect.poll(() => rows(page).count()).toBe(SEARCHED_ORDERS);
    await expect.poll(() => query(page)).toEqual({ tab: 'orders', sort: 'name', dir: 'desc', q: 'ypma' });
    expect(await ordersCount(page)).toBe('3 bestellingen');
    expect(await pageStatus(page)).toBe('Pagina 1 van 1');
    for (const row of await rows(page).all()) expect(await row.textContent()).toContain(SEARCHED);
    await page.getByLabel('Zoeken').fill('');
    await expect.poll(() => rows(page).count()).toBe(PER_PAGE);
    await expect.poll(() => query(page)).toEqual({ tab: 'orders', sort: 'name', dir: 'desc' });
  });

  it('keeps page 3, the filter and the sort over a reload, and Back returns to each state before', async () => {
    await page.locator('#filter-paid').selectOption('false');
    await expect.poll(() => pageStatus(page)).toBe(`Pagina 1 van ${pagesOf(expected.open)}`);
    expect(await ordersCount(page)).toBe(`${nl(expected.open)} bestellingen`);
    const firstOfPage1 = await rows(page).first().getAttribute('data-order');
    await nextPage(page);
    await expect.poll(() => pageStatus(page)).toBe(`Pagina 2 van ${pagesOf(expected.open)}`);
    const firstOfPage2 = await rows(page).first().getAttribute('data-order');
    await nextPage(page);
    await expect.poll(() => pageStatus(page)).toBe(`Pagina 3 van ${pagesOf(expected.open)}`);
    expect(query(page)).toEqual({ tab: 'orders', sort: 'name', dir: 'desc', paid: 'false', page: '3' });
    const firstOfPage3 = await rows(page).first().getAttribute('data-order');
    expect(new Set([firstOfPage1, firstOfPage2, firstOfPage3]).size).toBe(3);
    // Open orders only.
    for (const row of await rows(page).all()) expect(await row.getByRole('switch').getAttribute('aria-checked')).toBe('false');

    await page.reload();
    await expect.poll(() => pageStatus(page)).toBe(`Pagina 3 van ${pagesOf(expected.open)}`);
    expect(await rows(page).first().getAttribute('data-order')).toBe(firstOfPage3);
    expect(await page.locator('#filter-paid').inputValue()).toBe('false');
    expect(await column(page, 'Klant').getAttribute('aria-sort')).toBe('descending');
    expect(await page.getByRole('tab', { name: 'Bestellingen' }).getAttribute('aria-selected')).toBe('true');

    await page.goBack();
    await expect.poll(() => pageStatus(page)).toBe(`Pagina 2 van ${pagesOf(expected.open)}`);
    expect(await rows(page).first().getAttribute('data-order')).toBe(firstOfPage2);
    await page.goBack();
    await expect.poll(() => pageStatus(page)).toBe(`Pagina 1 van ${pagesOf(expected.open)}`);
    expect(query(page)).toEqual({ tab: 'orders', sort: 'name', dir: 'desc', paid: 'false' });
    // The search text was typed in place (no entries of its own): next back is the state before the filter.
    await page.goBack();
    await expect.poll(() => pageStatus(page)).toBe('Pagina 1 van 1.000');
    expect(query(page)).toEqual({ tab: 'orders', sort: 'name', dir: 'desc' });
    expect(await page.locator('#filter-paid').inputValue()).toBe('');
    expect(await page.getByLabel('Zoeken').inputValue()).toBe('');
    await page.goBack();
    await expect.poll(() => column(page, 'Klant').getAttribute('aria-sort')).toBe('ascending');
    await expect.poll(() => rows(page).first().getAttribute('data-order')).toBe(expected.firstByName);
  });

  it('keeps the open tab in the URL', async () => {
    await page.getByRole('tab', { name: 'Tablers' }).click();
    await page.locator('tr[data-tabler]').first().waitFor();
    // The Tablers tab is the default: the URL says nothing of it, but keeps the table's state.
    expect(query(page)).toEqual({ sort: 'name' });
    await page.goBack();
    await expect.poll(() => page.getByRole('tab', { name: 'Bestellingen' }).getAttribute('aria-selected')).toBe('true');
    await expect.poll(() => column(page, 'Klant').getAttribute('aria-sort')).toBe('ascending');
  });

  it('keeps a selection over the pages, and says how much of it is out of sight', async () => {
    const bulkCount = page.getByRole('region', { name: 'Bulkacties' }).locator('[data-slot=bulk-count]');
    await rows(page).first().getByRole('checkbox').click();
    await expect.poll(() => bulkCount.textContent()).toBe('1 geselecteerd');
    await nextPage(page);
    await expect.poll(() => pageStatus(page)).toBe('Pagina 2 van 1.000');
    await expect.poll(() => bulkCount.textContent()).toBe('1 geselecteerd, waarvan 1 op een andere pagina');
    const pageBox = page.getByRole('checkbox', { name: 'Selecteer alle bestellingen op deze pagina' });
    await pageBox.click();
    await expect.poll(() => bulkCount.textContent()).toBe('51 geselecteerd, waarvan 1 op een andere pagina');
    await page.getByRole('region', { name: 'Bulkacties' }).getByRole('button', { name: 'Selectie wissen' }).click();
    expect(await pageBox.getAttribute('aria-checked')).toBe('false');
    expect(pageErrors).toEqual([]);
  });
});

describe('the Management page with 50,000 orders at 375 px', () => {
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    context = await browser.newContext({ viewport: VIEWPORTS.phone });
    page = await context.newPage();
    await signIn(page);
  });

  afterAll(async () => {
    await context?.close();
  });

  it('shows 50 cards a page, sorts without column headers, and stays within the budget', async () => {
    const { bytes, tableMs } = await openOrdersTab(page, cards);
    console.info(`management, 50,000 orders, 375 px: ${bytes} bytes of JSON, cards after ${tableMs} ms`);
    expect(bytes).toBeLessThanOrEqual(JSON_BUDGET);
    expect(await cards(page).count()).toBe(PER_PAGE);
    expect(await pageStatus(page)).toBe('Pagina 1 van 1.000');
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await screenshot(page, 'management-scale-phone.png');

    await page.getByLabel('Sorteren').selectOption({ label: 'Klant A–Z' });
    await expect.poll(() => query(page)).toEqual({ tab: 'orders', sort: 'name' });
    await expect.poll(() => cards(page).first().getAttribute('data-order-card')).toBe(expected.firstByName);
    await pager(page).getByRole('button', { name: 'Laatste pagina' }).click();
    await expect.poll(() => pageStatus(page)).toBe('Pagina 1.000 van 1.000');
    await expect.poll(() => cards(page).last().getAttribute('data-order-card')).toBe(expected.lastByName);
    expect(query(page)).toEqual({ tab: 'orders', sort: 'name', page: '1000' });
    // The pager under the list: the page before then starts at the top of the list.
    await page.getByRole('navigation', { name: 'Paginering onderaan' }).getByRole('button', { name: 'Vorige' }).click();
    await expect.poll(() => pageStatus(page)).toBe('Pagina 999 van 1.000');
    // It scrolls smoothly (styles.css): wait until it is there.
    const listTop = () => page.locator('[data-slot=orders-count]').evaluate((el) => el.getBoundingClientRect().top);
    await expect
      .poll(async () => {
        const top = await listTop();
        return top >= 0 && top < VIEWPORTS.phone.height / 2;
      })
      .toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await expectAxeClean(page, 'orders tab with 50,000 orders, 375 px');
    await screenshot(page, 'management-scale-phone-full.png', { fullPage: true });
  });
});
