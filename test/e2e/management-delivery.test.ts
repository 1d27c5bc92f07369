import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders } from '../../src/db/schema';
import { pdfText } from '../support/pdf-text';
import { blockingAxeViolations } from './axe';
import { launchChromium, openWatchedPage, SCREENSHOT_DIR, signIn, startTestServer, VIEWPORTS, overflowingElements, screenshot } from './browser';

/**
 * docs/decisions/023, delivery day, in Chromium against the real Node server: the delivered mark per order, the
 * 'Niet bezorgd' filter kept in the URL, the bulk marks, and a tabler's delivery list downloaded from the
 * Tablers tab and beside the tabler filter, at 1280 and at 375 px.
 */

let browser: Browser;
let server: Awaited<ReturnType<typeof startTestServer>>;

const TABLER = 'Sjoerd Bezorger';
const OTHER_TABLER = 'Wytze Anders';
/** Tabler's orders, with the address that puts them in driving order on the list. */
const CUSTOMERS = [
  { name: 'Anna Aan', address: 'Voorstraat 10', postal_code: '8861 BJ', amount: 2 },
  { name: 'Bert Bulk', address: 'Voorstraat 2', postal_code: '8861 BJ', amount: 1 },
  { name: 'Carla Terug', address: 'Noorderhaven 5', postal_code: '8861 AL', amount: 3, notes: 'Na 17:00 thuis' },
  { name: 'Dirk Later', address: 'Zuiderhaven 1', postal_code: '8862 AB', amount: 1 },
] as const;
const ELSEWHERE = 'Eva Elders';

const nlDay = (date: Date) => new Intl.DateTimeFormat('nl-NL', { day: '2-digit', month: '2-digit', year: 'numeric' }).format(date);
/** The date the PDF's header prints ('24 november 2026'), in Dutch time as the server writes it. */
const nlLongDay = (date: Date) =>
  new Intl.DateTimeFormat('nl-NL', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'Europe/Amsterdam' }).format(date);

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** A JSON POST from the signed-in page itself (same origin, the session cookie). */
async function api(page: Page, path: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  return page.evaluate(
    async ([path, body]) => {
      const r = await fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
      return { status: r.status, json: (await r.json()) as Record<string, unknown> };
    },
    [path, body] as const,
  );
}

const orderRow = (page: Page, customer: string) => page.locator('tr[data-order]').filter({ hasText: customer });
const orderCard = (page: Page, customer: string) => page.locator('[data-order-card]').filter({ hasText: customer });
const deliveredToggle = (scope: Page | Locator, customer: string) => scope.getByRole('button', { name: `Bezorgd: ${customer}`, exact: true });
const bulkBar = (page: Page) => page.getByRole('region', { name: 'Bulkacties' });

async function deliveredInDb(customer: string) {
  const [row] = await server.deps.db.select({ delivered: orders.delivered, at: orders.deliveredAt }).from(orders).where(eq(orders.name, customer));
  return row!;
}

async function select(page: Page, customer: string) {
  const reference = await orderRow(page, customer).getAttribute('data-order');
  await page.getByRole('checkbox', { name: `Selecteer ${reference}`, exact: true }).click();
}

/** Waits until a dialog's entry animation is over, so a screenshot shows it as the user reads it. */
async function settled(locator: Locator) {
  await locator.evaluate((el) => Promise.all(el.getAnimations({ subtree: true }).map((a) => a.finished)));
}

/** Clicks `button` and answers the file the browser saved: its suggested name and its text. */
async function download(page: Page, button: Locator, saveAs: string) {
  const [file] = await Promise.all([page.waitForEvent('download'), button.click()]);
  const path = join(SCREENSHOT_DIR, saveAs);
  await file.saveAs(path);
  const bytes = readFileSync(path);
  expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  return { name: file.suggestedFilename(), text: await pdfText(bytes) };
}

/** Whether the whole element is on screen (a table that scrolls sideways may hide part of a row). */
async function inView(page: Page, locator: Locator): Promise<boolean> {
  const box = (await locator.boundingBox())!;
  return box.x >= 0 && box.x + box.width <= page.viewportSize()!.width;
}

describe('delivery day on the Management page', () => {
  let context: BrowserContext;
  let page: Page;
  let pageErrors: string[];

  beforeAll(async () => {
    ({ context, page, errors: pageErrors } = await openWatchedPage(browser, { viewport: VIEWPORTS.desktop, acceptDownloads: true }));
    await signIn(page, server.url, 'admin', 'e2e-admin-password');
    const tablerId = ((await api(page, '/tablers/create', { name: TABLER })).json.tabler as { id: number }).id;
    const otherId = ((await api(page, '/tablers/create', { name: OTHER_TABLER })).json.tabler as { id: number }).id;
    const common = { email: 'klant@example.nl', phone: '0517 123456', city: 'Harlingen' };
    for (const customer of CUSTOMERS) {
      expect((await api(page, '/orders/create', { ...common, ...customer, tabler_id: tablerId })).status).toBe(200);
    }
    expect(
      (await api(page, '/orders/create', { ...common, name: ELSEWHERE, address: 'Kerkpad 3', postal_code: '8861 AA', amount: 1, tabler_id: otherId })).status,
    ).toBe(200);
    await page.goto(`${server.url}/admin/management?tab=orders`);
    await page.locator('tr[data-order]').nth(CUSTOMERS.length).waitFor();
  });

  afterAll(async () => {
    await context?.close();
  });

  it('marks one order delivered with its toggle, shows the date, and takes it back', async () => {
    const toggle = deliveredToggle(orderRow(page, 'Anna Aan'), 'Anna Aan');
    expect(await toggle.getAttribute('aria-pressed')).toBe('false');
    await toggle.click();
    await expect.poll(() => toggle.getAttribute('aria-pressed')).toBe('true');
    expect(await orderRow(page, 'Anna Aan').locator('[data-slot=delivered-at]').textContent()).toBe(`op ${nlDay(new Date())}`);
    await expect.poll(async () => (await deliveredInDb('Anna Aan')).delivered).toBe(true);
    await screenshot(page, 'management-delivery-orders-desktop.png', { fullPage: true });

    await toggle.click();
    await expect.poll(() => toggle.getAttribute('aria-pressed')).toBe('false');
    await expect.poll(() => deliveredInDb('Anna Aan')).toEqual({ delivered: false, at: null });
    expect(await orderRow(page, 'Anna Aan').locator('[data-slot=delivered-at]').count()).toBe(0);
    await toggle.click();
    await expect.poll(async () => (await deliveredInDb('Anna Aan')).delivered).toBe(true);
  });

  it('filters what is still to deliver, and keeps the filter in the URL over a reload', async () => {
    await page.locator('#filter-delivered').selectOption('false');
    await expect.poll(() => page.locator('tr[data-order]').count()).toBe(CUSTOMERS.length);
    expect(new URL(page.url()).searchParams.get('delivered')).toBe('false');
    expect(await orderRow(page, 'Anna Aan').count()).toBe(0);
    await page.reload();
    await page.locator('tr[data-order]').first().waitFor();
    expect(await page.locator('#filter-delivered').inputValue()).toBe('false');
    await expect.poll(() => page.locator('tr[data-order]').count()).toBe(CUSTOMERS.length);
    await page.locator('#filter-delivered').selectOption('true');
    await expect.poll(() => page.locator('tr[data-order]').count()).toBe(1);
    expect(await orderRow(page, 'Anna Aan').count()).toBe(1);
    await page.locator('#filter-delivered').selectOption('false');
    await expect.poll(() => page.locator('tr[data-order]').count()).toBe(CUSTOMERS.length);
  });

  it('marks orders delivered in bulk after a confirmation, and one back as not delivered', async () => {
    for (const customer of ['Bert Bulk', 'Carla Terug']) await select(page, customer);
    await expect.poll(() => bulkBar(page).locator('[data-slot=bulk-count]').textContent()).toBe('2 geselecteerd');
    expect(await blockingAxeViolations(page, 'orders tab with the delivery column and a selection, 1280 px')).toBe('');
    await bulkBar(page).getByRole('button', { name: 'Markeer als bezorgd' }).click();
    const confirm = page.getByRole('alertdialog');
    await confirm.getByRole('heading', { name: '2 bestellingen als bezorgd markeren?' }).waitFor();
    expect(await confirm.locator('p').textContent()).toBe('De bezorgdatum wordt vandaag. Bestellingen die al bezorgd zijn, blijven zoals ze zijn.');
    await settled(confirm);
    await screenshot(page, 'management-delivery-bulk-confirm-desktop.png');
    await confirm.getByRole('button', { name: 'Markeer als bezorgd' }).click();
    const result = page.getByRole('dialog', { name: 'Markeer als bezorgd: resultaat' });
    await result.waitFor();
    expect(await result.locator('[data-slot=bulk-summary]').textContent()).toBe('2 gelukt, 0 mislukt');
    await result.getByRole('button', { name: 'Sluiten' }).first().click();
    await result.waitFor({ state: 'detached' });
    // The list reloads under the 'Niet bezorgd' filter: the two are gone from it.
    await expect.poll(() => page.locator('tr[data-order]').count()).toBe(CUSTOMERS.length - 2);
    for (const customer of ['Bert Bulk', 'Carla Terug']) expect((await deliveredInDb(customer)).delivered).toBe(true);

    // Carla was not home after all.
    await page.locator('#filter-delivered').selectOption('');
    await expect.poll(() => page.locator('tr[data-order]').count()).toBe(CUSTOMERS.length + 1);
    await select(page, 'Carla Terug');
    await bulkBar(page).getByRole('button', { name: 'Markeer als niet bezorgd' }).click();
    await confirm.getByRole('heading', { name: '1 bestelling als niet bezorgd markeren?' }).waitFor();
    expect(await confirm.locator('p').textContent()).toBe('De bezorgdatum vervalt en de bestelling staat weer op de bezorglijst van haar tabler.');
    await confirm.getByRole('button', { name: 'Markeer als niet bezorgd' }).click();
    await page.getByRole('dialog', { name: 'Markeer als niet bezorgd: resultaat' }).getByRole('button', { name: 'Sluiten' }).first().click();
    await expect.poll(() => deliveredToggle(orderRow(page, 'Carla Terug'), 'Carla Terug').getAttribute('aria-pressed')).toBe('false');
    expect(await deliveredInDb('Carla Terug')).toEqual({ delivered: false, at: null });
    expect(await deliveredToggle(orderRow(page, 'Bert Bulk'), 'Bert Bulk').getAttribute('aria-pressed')).toBe('true');
  });

  it("downloads a tabler's delivery list from the Tablers tab: what is left, in driving order", async () => {
    await page.getByRole('tab', { name: 'Tablers' }).click();
    const button = page.locator(`tr[data-tabler="${TABLER}"]`).getByRole('button', { name: `Bezorglijst ${TABLER} (PDF)` });
    await button.waitFor();
    await screenshot(page, 'management-delivery-tablers-desktop.png', { fullPage: true });
    expect(await blockingAxeViolations(page, 'tablers tab with the delivery list buttons, 1280 px')).toBe('');
    const list = await download(page, button, 'management-delivery-bezorglijst.pdf');
    expect(list.name).toBe('bezorglijst-sjoerd-bezorger.pdf');
    for (const phrase of [
      'Ronde Tafel 144 Harlingen',
      'Bezorglijst',
      `Tabler: ${TABLER}`,
      nlLongDay(new Date()),
      'Te bezorgen: 2 bestellingen, 4 pakketten',
      'Opmerking: Na 17:00 thuis',
    ]) {
      expect(list.text, phrase).toContain(phrase);
    }
    // Noorderhaven (8861 AL) before Zuiderhaven (8862 AB); the delivered ones and the other tabler's are not on it.
    expect(list.text.indexOf('Carla Terug')).toBeGreaterThan(-1);
    expect(list.text.indexOf('Carla Terug')).toBeLessThan(list.text.indexOf('Dirk Later'));
    for (const absent of ['Anna Aan', 'Bert Bulk', ELSEWHERE]) expect(list.text).not.toContain(absent);
  });

  it('offers the list of the tabler chosen in the orders filter too', async () => {
    await page.getByRole('tab', { name: 'Bestellingen' }).click();
    await page.locator('tr[data-order]').first().waitFor();
    expect(await page.getByRole('button', { name: /^Bezorglijst/ }).count()).toBe(0);
    await page.locator('#filter-tabler').selectOption({ label: OTHER_TABLER });
    await expect.poll(() => page.locator('tr[data-order]').count()).toBe(1);
    const list = await download(page, page.getByRole('button', { name: `Bezorglijst ${OTHER_TABLER} (PDF)` }), 'management-delivery-bezorglijst-filter.pdf');
    expect(list.name).toBe('bezorglijst-wytze-anders.pdf');
    expect(list.text).toContain(`Tabler: ${OTHER_TABLER}`);
    expect(list.text).toContain(ELSEWHERE);
    expect(list.text).toContain('Te bezorgen: 1 bestelling, 1 pakket');
    await page.locator('#filter-tabler').selectOption('');
    await expect.poll(() => page.locator('tr[data-order]').count()).toBe(CUSTOMERS.length + 1);
  });

  it('fits 375 px: the toggle on the cards, the filter, the bulk bar and the list buttons', async () => {
    await page.setViewportSize(VIEWPORTS.phone);
    const card = orderCard(page, 'Dirk Later');
    await card.waitFor();
    const toggle = deliveredToggle(card, 'Dirk Later');
    await toggle.click();
    await expect.poll(() => toggle.getAttribute('aria-pressed')).toBe('true');
    await expect.poll(async () => (await deliveredInDb('Dirk Later')).delivered).toBe(true);
    expect(await card.locator('[data-slot=delivered-at]').textContent()).toBe(`op ${nlDay(new Date())}`);
    await page.locator('#filter-delivered').selectOption('false');
    await expect.poll(() => page.locator('[data-order-card]').count()).toBe(2);
    await card.waitFor({ state: 'detached' });
    await page.locator('#filter-tabler').selectOption({ label: TABLER });
    await expect.poll(() => page.locator('[data-order-card]').count()).toBe(1);
    expect(await inView(page, page.getByRole('button', { name: `Bezorglijst ${TABLER} (PDF)` }))).toBe(true);
    await orderCard(page, 'Carla Terug').getByRole('checkbox').click();
    await expect.poll(() => bulkBar(page).locator('[data-slot=bulk-count]').textContent()).toBe('1 geselecteerd');
    // On a phone the sticky bar keeps its actions in one row that scrolls sideways (docs/decisions/059): each is
    // reached within the bar, and the page itself never scrolls sideways (checked below).
    for (const action of ['Markeer als bezorgd', 'Markeer als niet bezorgd']) {
      const button = bulkBar(page).getByRole('button', { name: action });
      await button.scrollIntoViewIfNeeded();
      expect(await inView(page, button)).toBe(true);
    }
    await screenshot(page, 'management-delivery-orders-phone.png', { fullPage: true });
    expect(await overflowingElements(page)).toEqual([]);
    expect(await blockingAxeViolations(page, 'orders tab with the delivery filter, 375 px')).toBe('');

    await page.getByRole('tab', { name: 'Tablers' }).click();
    const button = page.locator(`tr[data-tabler="${TABLER}"]`).getByRole('button', { name: `Bezorglijst ${TABLER} (PDF)` });
    await button.waitFor();
    await screenshot(page, 'management-delivery-tablers-phone.png', { fullPage: true });
    expect(await overflowingElements(page)).toEqual([]);
    // The list button takes no room from edit and delete, which stay in sight without scrolling the table.
    for (const control of [button, page.getByRole('button', { name: `${TABLER} bewerken` }), page.getByRole('button', { name: `${TABLER} verwijderen` })]) {
      expect(await inView(page, control)).toBe(true);
    }
    expect(await blockingAxeViolations(page, 'tablers tab, 375 px')).toBe('');
    const list = await download(page, button, 'management-delivery-bezorglijst-phone.pdf');
    expect(list.text).toContain('Te bezorgen: 1 bestelling, 3 pakketten');
    expect(list.text).toContain('Carla Terug');
    expect(list.text).not.toContain('Dirk Later');
    await page.setViewportSize(VIEWPORTS.desktop);
    expect(pageErrors).toEqual([]);
  });
});
