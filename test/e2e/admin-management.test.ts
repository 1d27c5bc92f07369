import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders } from '../../src/db/schema';
import { orderSearchText } from '../../src/db/search-text';
import { launchChromium, startTestServer, VIEWPORTS, signIn as signInAs, openWatchedPage, screenshot } from './browser';

/**
 * docs/product.md §2 Management Dashboard; §4 order paid and invoice states; §5 tabler and back-office order
 * rules; §8 management messages — in Chromium against the real Node
 * server (no SMTP configured, so invoices wait in the outbox).
 */

let browser: Browser;
let server: Awaited<ReturnType<typeof startTestServer>>;

const ADMIN_PASSWORD = 'e2e-admin-password';
const TABLER = 'Tabler Harlingen';

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

function signIn(page: Page) {
  return signInAs(page, server.url, 'admin', ADMIN_PASSWORD);
}

function stat(page: Page, name: string) {
  return page.locator(`[data-stat="${name}"] [data-slot=stat-value]`);
}

function orderRow(page: Page, customer: string) {
  return page.locator('tr[data-order]').filter({ hasText: customer });
}

/** `refusedAmount`: typed first, and must be refused inline (nothing saved) before `amount` is typed. */
async function addOrder(page: Page, o: { name: string; email: string; amount: string; refusedAmount?: string }) {
  await page.getByRole('button', { name: 'Nieuwe Bestelling' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('heading', { name: 'Nieuwe Bestelling' }).waitFor();
  const save = dialog.getByRole('button', { name: 'Opslaan' });
  // Tabler, name and email are required to submit.
  expect(await save.isDisabled()).toBe(true);
  await dialog.locator('#order-tabler').selectOption({ label: TABLER });
  await dialog.getByLabel('Naam').fill(o.name);
  await dialog.getByLabel('Email').fill(o.email);
  expect(await save.isDisabled()).toBe(false);
  await dialog.getByLabel('Telefoon').fill('0517 123456');
  await dialog.getByLabel('Adres').fill('Voorstraat 1');
  await dialog.getByLabel('Postcode').fill('8861 BA');
  await dialog.getByLabel('Plaats').fill('Harlingen');
  if (o.refusedAmount !== undefined) {
    await dialog.getByLabel('Aantal kerstpakketten').fill(o.refusedAmount);
    // docs/decisions/056: a number outside 1–10 is refused inline, never silently stored as 1.
    expect(await dialog.locator('[data-slot=amount-error]').textContent()).toBe('Het aantal is 1 tot en met 10.');
    expect(await save.isDisabled()).toBe(true);
  }
  await dialog.getByLabel('Aantal kerstpakketten').fill(o.amount);
  expect(await dialog.locator('[data-slot=amount-error]').count()).toBe(0);
  await save.click();
  await dialog.waitFor({ state: 'detached' });
  await orderRow(page, o.name).waitFor();
}

describe('the management dashboard in Chromium', () => {
  let context: BrowserContext;
  let page: Page;
  let pageErrors: string[];

  beforeAll(async () => {
    ({ context, page, errors: pageErrors } = await openWatchedPage(browser, { viewport: VIEWPORTS.desktop }));
    await signIn(page);
    // docs/decisions/019: invoices go out only once the club's IBAN, KvK number and VAT id are real (not the seeded placeholders).
    for (const [key, value] of Object.entries({ club_iban: 'NL91ABNA0417164300', club_kvk_number: '12345678', club_vat_id: 'NL123456789B01' })) {
      const saved = await page.evaluate(
        async ([key, value]) =>
          (
            await fetch('/api/settings/update', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ key, value }) })
          ).json(),
        [key, value] as const,
      );
      expect(saved).toEqual({ success: true });
    }
  });

  afterAll(async () => {
    await context?.close();
  });

  it('opens with the totals and the Tablers, Bestellingen and Mail tabs', async () => {
    await page.goto(`${server.url}/admin/management`);
    await page.getByRole('heading', { name: 'Management Dashboard' }).waitFor();
    for (const name of ['Tablers', 'Bestellingen', 'Mail']) await page.getByRole('tab', { name }).waitFor();
    await expect.poll(() => stat(page, 'orders').textContent()).toBe('0');
    await page.getByRole('button', { name: 'CSV exporteren' }).waitFor();
  });

  it('adds a tabler through the Nieuwe Tabler dialog', async () => {
    await page.getByRole('button', { name: 'Nieuwe Tabler' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'Nieuwe Tabler' }).waitFor();
    const save = dialog.getByRole('button', { name: 'Opslaan' });
    await dialog.getByLabel('Naam').fill('   ');
    expect(await save.isDisabled()).toBe(true);
    await dialog.getByLabel('Naam').fill(`  ${TABLER} `);
    await save.click();
    await dialog.waitFor({ state: 'detached' });
    const row = page.locator(`tr[data-tabler="${TABLER}"]`);
    await row.waitFor();
    // nl-NL dates, e.g. '22 nov 2026, 10:05'.
    expect(await row.textContent()).toMatch(/\d{1,2} [a-z]{3}\.? \d{4}/);
  });

  it('adds orders, and the totals follow', async () => {
    await page.getByRole('tab', { name: 'Bestellingen' }).click();
    await page.locator('td').getByText('Geen bestellingen gevonden.').waitFor();
    await addOrder(page, { name: 'Piet Pietersen', email: 'piet@example.nl', amount: '3' });
    // 42 is refused; an unparseable (empty) amount falls back to 1 (docs/product.md §5).
    await addOrder(page, { name: 'Jan Jansen', email: 'jan@example.nl', amount: '', refusedAmount: '42' });
    expect(await orderRow(page, 'Jan Jansen').locator('[data-slot=amount]').textContent()).toBe('1');
    expect(await orderRow(page, 'Piet Pietersen').locator('[data-slot=amount]').textContent()).toBe('3');
    expect(await orderRow(page, 'Piet Pietersen').textContent()).toContain(TABLER);
    await expect.poll(() => stat(page, 'orders').textContent()).toBe('2');
    await expect.poll(() => stat(page, 'paid').textContent()).toBe('0 / 2');
    expect(await page.locator('[data-slot=per-tabler]').textContent()).toContain(`${TABLER}: 4`);
    // 4 packages at 75 euro excl. VAT.
    expect((await stat(page, 'revenue').textContent())?.replace(/\s/g, ' ')).toContain('300,00');
  });

  it('marks an order paid with the switch and the totals change', async () => {
    const toggle = orderRow(page, 'Piet Pietersen').getByRole('switch');
    expect(await toggle.getAttribute('aria-checked')).toBe('false');
    await toggle.click();
    await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('true');
    await expect.poll(() => stat(page, 'paid').textContent()).toBe('1 / 1');
    // Stored on the server: a reload shows it too.
    await page.reload();
    await page.getByRole('tab', { name: 'Bestellingen' }).click();
    await expect.poll(() => orderRow(page, 'Piet Pietersen').getByRole('switch').getAttribute('aria-checked')).toBe('true');
  });

  it('filters by text on the server', async () => {
    await page.getByLabel('Zoeken').fill('jansen');
    await expect.poll(() => page.locator('tr[data-order]').count()).toBe(1);
    expect(await orderRow(page, 'Jan Jansen').count()).toBe(1);
    await page.getByLabel('Zoeken').fill('');
    await expect.poll(() => page.locator('tr[data-order]').count()).toBe(2);
    await page.locator('#filter-paid').selectOption('true');
    await expect.poll(() => page.locator('tr[data-order]').count()).toBe(1);
    await page.locator('#filter-paid').selectOption('');
    await expect.poll(() => page.locator('tr[data-order]').count()).toBe(2);
  });

  it('exports the filtered orders as CSV', async () => {
    await page.locator('#filter-paid').selectOption('true');
    await expect.poll(() => page.locator('tr[data-order]').count()).toBe(1);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'CSV exporteren' }).click()]);
    expect(download.suggestedFilename()).toMatch(/\.csv$/);
    const file = await download.path();
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('Piet Pietersen');
    expect(text).not.toContain('Jan Jansen');
    await page.locator('#filter-paid').selectOption('');
    await expect.poll(() => page.locator('tr[data-order]').count()).toBe(2);
  });

  it('sends an invoice after a confirmation; without SMTP it waits in the outbox', async () => {
    const row = orderRow(page, 'Piet Pietersen');
    await row.getByRole('button', { name: 'Factuur versturen' }).click();
    const confirm = page.getByRole('alertdialog');
    expect(await confirm.textContent()).toContain('Weet je zeker dat je de factuur');
    await confirm.getByRole('button', { name: 'Versturen' }).click();
    await confirm.waitFor({ state: 'detached' });
    await expect.poll(() => row.locator('[data-slot=invoice-status]').textContent()).toMatch(/^F\d{4}-0001/);
    await expect.poll(() => page.locator('[data-slot=snackbar]').textContent()).toBeTruthy();
    await row.getByRole('button', { name: 'Opnieuw versturen' }).waitFor();
    await row.getByRole('link', { name: /PDF/ }).waitFor();
    // Beside the PDF, the same invoice as UBL for an accounting package (docs/decisions/077).
    const [ubl] = await Promise.all([page.waitForEvent('download'), row.getByRole('link', { name: /^UBL van factuur F\d{4}-0001 \(XML\)$/ }).click()]);
    expect(ubl.suggestedFilename()).toMatch(/^Factuur-F\d{4}-0001\.xml$/);
    expect(readFileSync(await ubl.path(), 'utf8')).toContain('<cbc:PayableAmount currencyID="EUR">');
    await screenshot(page, 'admin-management-orders-desktop.png', { fullPage: true });

    await page.getByRole('tab', { name: 'Mail' }).click();
    await page.locator('[data-slot=mail-notice]').waitFor();
    await expect.poll(() => page.locator('tr[data-mail]').filter({ hasText: 'In wachtrij' }).count()).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Opnieuw proberen' }).first().waitFor();
    await screenshot(page, 'admin-management-mail-desktop.png', { fullPage: true });
    await page.getByRole('tab', { name: 'Bestellingen' }).click();
  });

  it("downloads the year's journal for the accountant, with the invoice just sent (docs/decisions/076)", async () => {
    const year = page.getByLabel('Jaar van het journaal');
    expect(await year.inputValue()).toBe(String(new Date().getFullYear()));
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Journaal voor de boekhouder' }).click()]);
    expect(download.suggestedFilename()).toBe(`journaal-${await year.inputValue()}.csv`);
    const lines = readFileSync(await download.path(), 'utf8').split('\r\n');
    expect(lines[0]).toBe('\uFEFFdatum;boekstuk;omschrijving;rekening;debet;credit;btw_tarief');
    expect(lines.filter((line) => /^\d{4}-\d{2}-\d{2};F\d{4}-0001;Factuur F\d{4}-0001 KP-\d{4}-\d{4} Piet Pietersen;1300;/.test(line))).toHaveLength(1);
  });

  it('deletes a non-invoiced order after a Dutch confirmation', async () => {
    await orderRow(page, 'Jan Jansen')
      .getByRole('button', { name: /verwijderen/ })
      .click();
    const confirm = page.getByRole('alertdialog');
    expect(await confirm.textContent()).toContain('Weet je zeker dat je bestelling');
    await confirm.getByRole('button', { name: 'Verwijderen' }).click();
    await confirm.waitFor({ state: 'detached' });
    await expect.poll(() => orderRow(page, 'Jan Jansen').count()).toBe(0);
    await expect.poll(() => stat(page, 'orders').textContent()).toBe('1');
  });

  it('refuses to delete an invoiced order and shows the server text in a dismissible banner', async () => {
    await orderRow(page, 'Piet Pietersen')
      .getByRole('button', { name: /verwijderen/ })
      .click();
    const confirm = page.getByRole('alertdialog');
    await confirm.getByRole('button', { name: 'Verwijderen' }).click();
    const banner = page.getByText('Een gefactureerde bestelling kan niet worden verwijderd.');
    await banner.waitFor();
    await page.getByRole('button', { name: 'Dismiss' }).click();
    await banner.waitFor({ state: 'detached' });
    expect(await orderRow(page, 'Piet Pietersen').count()).toBe(1);
  });

  it('edits a 25-package order from the public form without touching its amount, and refuses another amount', async () => {
    // Taken on the public form (no session): 25 packages and one unbroken 2,000-character note.
    const tablerId = await page.evaluate(
      async (name) => ((await (await fetch('/tablers')).json()) as { id: number; name: string }[]).find((t) => t.name === name)!.id,
      TABLER,
    );
    const placed = await fetch(`${server.url}/orders/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        tabler_id: tablerId,
        name: 'Groot Kantoor',
        email: 'inkoop@example.nl',
        phone: '0517 654321',
        address: 'Havenweg 1',
        postal_code: '8861 ZZ',
        city: 'Harlingen',
        amount: 25,
        notes: 'A'.repeat(2000),
      }),
    });
    expect(placed.status).toBe(200);
    await page.reload();
    await page.getByRole('tab', { name: 'Bestellingen' }).click();
    const row = orderRow(page, 'Groot Kantoor');
    await row.waitFor();
    // The list has settled (it is aria-busy while it refetches): a row drawn again would fold the note back.
    await expect.poll(() => page.locator('[aria-busy=true]').count()).toBe(0);
    expect(await row.locator('[data-slot=amount]').textContent()).toBe('25');
    // The note wraps (and folds) in its cell: the page stays as wide as the window.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(VIEWPORTS.desktop.width);
    await screenshot(page, 'admin-management-long-note-desktop.png', { fullPage: true });
    await row.getByRole('button', { name: 'Hele opmerking tonen' }).click();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(VIEWPORTS.desktop.width);
    await row.getByRole('button', { name: 'Minder tonen' }).click();
    const invoicesBefore = await stat(page, 'invoices').textContent();

    await row.getByRole('button', { name: /bewerken/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'Bestelling Bewerken' }).waitFor();
    const save = dialog.getByRole('button', { name: 'Opslaan' });
    const amount = dialog.getByLabel('Aantal kerstpakketten');
    expect(await amount.inputValue()).toBe('25');
    expect(await dialog.locator('[data-slot=amount-error]').count()).toBe(0);
    // Another amount above 10 is refused inline; so is one that is no whole number.
    await amount.fill('24');
    expect(await dialog.locator('[data-slot=amount-error]').textContent()).toBe('Het aantal is 1 tot en met 10.');
    expect(await save.isDisabled()).toBe(true);
    await amount.fill('2.5');
    expect(await dialog.locator('[data-slot=amount-error]').textContent()).toBe('Aantal kerstpakketten moet een heel getal zijn, zoals 1, 2 of 3.');
    expect(await save.isDisabled()).toBe(true);
    await amount.fill('25');
    expect(await save.isDisabled()).toBe(false);
    await dialog.getByLabel('Adres').fill('Havenweg 3');
    // Invoiced outside this system: the row and the totals both count it as sent.
    await dialog.getByLabel('Factuur verstuurd').check();
    await screenshot(page, 'admin-management-order-dialog-desktop.png');
    await save.click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => row.textContent()).toContain('Havenweg 3');
    expect(await row.locator('[data-slot=amount]').textContent()).toBe('25');
    await expect.poll(() => row.locator('[data-slot=invoice-status]').textContent()).toBe('Verstuurd (handmatig)');
    await expect.poll(() => stat(page, 'invoices').textContent()).toBe(String(Number(invoicesBefore) + 1));
  });

  it('fits a phone screen', async () => {
    await page.setViewportSize(VIEWPORTS.phone);
    await page.getByRole('heading', { name: 'Management Dashboard' }).waitFor();
    // Phones get cards instead of the wide table.
    await page.locator('[data-order-card]').filter({ hasText: 'Piet Pietersen' }).waitFor();
    expect(await page.locator('[data-order-card]').filter({ hasText: 'Piet Pietersen' }).textContent()).toMatch(/F\d{4}-0001/);
    // The charts follow the new width through a ResizeObserver, a frame or more after the resize.
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    // Also with the 2,000-character note opened in its card.
    const card = page.locator('[data-order-card]').filter({ hasText: 'Groot Kantoor' });
    await card.getByRole('button', { name: 'Hele opmerking tonen' }).click();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(VIEWPORTS.phone.width);
    await screenshot(page, 'admin-management-orders-phone.png', { fullPage: true });
    await page.getByRole('tab', { name: 'Mail' }).click();
    await page.locator('[data-slot=mail-notice]').waitFor();
    await screenshot(page, 'admin-management-mail-phone.png', { fullPage: true });
    await page.getByRole('tab', { name: 'Tablers' }).click();
    await screenshot(page, 'admin-management-tablers-phone.png', { fullPage: true });
    await page.setViewportSize(VIEWPORTS.desktop);
    await screenshot(page, 'admin-management-tablers-desktop.png', { fullPage: true });
    expect(pageErrors).toEqual([]);
  });
});

describe('the management dashboard with 5,000 orders', () => {
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    const now = new Date().toISOString();
    const rows = Array.from({ length: 5000 }, (_, i) => {
      const fields = {
        reference: `KP-2025-${String(i + 1).padStart(4, '0')}`,
        name: `Klant ${i + 1}`,
        email: `klant${i + 1}@example.nl`,
        phone: '0517 000000',
        address: `Dijk ${i + 1}`,
        postalCode: '8861 AA',
        city: 'Harlingen',
        notes: null,
      };
      // Written straight into the database, so with the search text the server writes with an order.
      return {
        ...fields,
        searchText: orderSearchText({ ...fields, invoiceNumber: null, creditNoteNumber: null }),
        amount: (i % 10) + 1,
        createdAt: now,
        updatedAt: now,
      };
    });
    for (let i = 0; i < rows.length; i += 250) await server.deps.db.insert(orders).values(rows.slice(i, i + 250));
    context = await browser.newContext({ viewport: VIEWPORTS.desktop });
    page = await context.newPage();
    await signIn(page);
  });

  afterAll(async () => {
    await context?.close();
  });

  it('shows 50 rows a page, filters on the server and toggles paid without a reload', async () => {
    await page.goto(`${server.url}/admin/management`);
    await page.getByRole('tab', { name: 'Bestellingen' }).click();
    // nl-NL thousands separator; the two orders left by the suite above count too.
    await expect.poll(() => stat(page, 'orders').textContent()).toBe('5.002');
    await expect.poll(() => page.locator('tr[data-order]').count()).toBe(50);
    await page.getByText('Pagina 1 van 101').first().waitFor();
    await page.getByRole('button', { name: 'Volgende' }).first().click();
    await page.getByText('Pagina 2 van 101').first().waitFor();

    await page.getByLabel('Zoeken').fill('klant4321@');
    await expect.poll(() => page.locator('tr[data-order]').count()).toBe(1);
    const toggle = orderRow(page, 'Klant 4321').getByRole('switch');
    const paidBefore = await stat(page, 'paid').textContent();
    const started = Date.now();
    await toggle.click();
    await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('true');
    await expect.poll(() => stat(page, 'paid').textContent()).not.toBe(paidBefore);
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
