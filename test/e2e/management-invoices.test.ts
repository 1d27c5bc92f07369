import { eq } from 'drizzle-orm';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDateLong } from '../../src/core/nl-format';
import { orders } from '../../src/db/schema';
import { paymentDueDate } from '../../src/features/invoices/payment-term';
import { blockingAxeViolations } from './axe';
import { launchChromium, startTestServer, VIEWPORTS, signIn as signInAs, openWatchedPage, overflowingElements, screenshot } from './browser';

/**
 * docs/decisions/018–022 (orders part) in Chromium against the real Node server: invoices sent in bulk, the invoice-fixed
 * fields of an order, a credit note with both PDFs, the 'Achterstallig' filter, reminders one by one and in
 * bulk, bulk mark paid with its per-order result, and the orders tab at 1280 and 375 px. No SMTP is
 * configured, so every mail waits in the outbox (the server's "staat klaar" messages).
 */

let browser: Browser;
let server: Awaited<ReturnType<typeof startTestServer>>;

const ADMIN_PASSWORD = 'e2e-admin-password';
const TABLER = 'Tabler Franeker';
const CUSTOMERS = ['Anna Achterstal', 'Bert Betaler', 'Carla Credit', 'Dirk Dubbel', 'Eva Nieuw'] as const;
type Customer = (typeof CUSTOMERS)[number];

/** nl-NL numeric date, as the table shows paid and reminder dates ('24-11-2026'). */
const nlDay = (date: Date) => new Intl.DateTimeFormat('nl-NL', { day: '2-digit', month: '2-digit', year: 'numeric' }).format(date);

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

/** A JSON POST from the signed-in page itself (same origin, the session cookie), as another admin's screen would. */
async function api(page: Page, path: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  return page.evaluate(
    async ([path, body]) => {
      const r = await fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
      return { status: r.status, json: (await r.json()) as Record<string, unknown> };
    },
    [path, body] as const,
  );
}

function orderRow(page: Page, customer: Customer) {
  return page.locator('tr[data-order]').filter({ hasText: customer });
}

async function referenceOf(page: Page, customer: Customer): Promise<string> {
  return (await orderRow(page, customer).getAttribute('data-order'))!;
}

async function select(page: Page, customer: Customer) {
  const reference = await referenceOf(page, customer);
  await page.getByRole('checkbox', { name: `Selecteer ${reference}`, exact: true }).click();
}

/** Waits until the dialog's entry animation is over, so a screenshot shows it as the user reads it. */
async function settled(locator: Locator) {
  await locator.evaluate((el) => Promise.all(el.getAnimations({ subtree: true }).map((a) => a.finished)));
}

const snackbar = (page: Page) => page.locator('[data-slot=snackbar]');
const bulkBar = (page: Page) => page.getByRole('region', { name: 'Bulkacties' });

describe('invoices, credit notes and reminders on the Bestellingen tab', () => {
  let context: BrowserContext;
  let page: Page;
  let pageErrors: string[];
  const invoiceNumbers = new Map<Customer, string>();

  beforeAll(async () => {
    ({ context, page, errors: pageErrors } = await openWatchedPage(browser, { viewport: VIEWPORTS.desktop }));
    await signIn(page);
    // Sending is refused while the club's IBAN, KvK number and VAT id are the seeded placeholders.
    for (const [key, value] of Object.entries({ club_iban: 'NL91ABNA0417164300', club_kvk_number: '12345678', club_vat_id: 'NL123456789B01' })) {
      expect((await api(page, '/api/settings/update', { key, value })).json).toEqual({ success: true });
    }
    const tabler = await api(page, '/tablers/create', { name: TABLER });
    const tablerId = (tabler.json.tabler as { id: number }).id;
    for (const [i, name] of CUSTOMERS.entries()) {
      const created = await api(page, '/orders/create', {
        tabler_id: tablerId,
        name,
        email: `${name.split(' ')[0]!.toLowerCase()}@example.nl`,
        phone: '0517 123456',
        address: `Voorstraat ${i + 1}`,
        postal_code: '8801 AB',
        city: 'Franeker',
        amount: i + 1,
      });
      expect(created.status).toBe(200);
    }
    await page.goto(`${server.url}/admin/management`);
    await page.getByRole('tab', { name: 'Bestellingen' }).click();
    await page
      .locator('tr[data-order]')
      .nth(CUSTOMERS.length - 1)
      .waitFor();
  });

  afterAll(async () => {
    await context?.close();
  });

  it('sends three invoices in bulk after a confirmation naming the count', async () => {
    for (const customer of ['Anna Achterstal', 'Bert Betaler', 'Carla Credit'] as const) await select(page, customer);
    await expect.poll(() => bulkBar(page).locator('[data-slot=bulk-count]').textContent()).toBe('3 geselecteerd');
    await bulkBar(page).getByRole('button', { name: 'Facturen versturen' }).click();
    const confirm = page.getByRole('alertdialog');
    await confirm.getByRole('heading', { name: 'Facturen versturen voor 3 bestellingen?' }).waitFor();
    await confirm.getByRole('button', { name: 'Facturen versturen' }).click();
    const result = page.getByRole('dialog', { name: 'Facturen versturen: resultaat' });
    await result.waitFor();
    expect(await result.locator('[data-slot=bulk-summary]').textContent()).toBe('3 gelukt, 0 mislukt');
    expect(await result.locator('[data-slot=bulk-failures]').count()).toBe(0);
    await result.getByRole('button', { name: 'Sluiten' }).first().click();
    await result.waitFor({ state: 'detached' });
    // The selection is cleared and the list reloaded with the invoice numbers.
    expect(await bulkBar(page).count()).toBe(0);
    for (const customer of ['Anna Achterstal', 'Bert Betaler', 'Carla Credit'] as const) {
      const status = orderRow(page, customer).locator('[data-slot=invoice-status]');
      await expect.poll(() => status.textContent()).toMatch(/^F\d{4}-\d{4}/);
      invoiceNumbers.set(customer, (await status.textContent())!.slice(0, 10));
      await orderRow(page, customer)
        .getByRole('link', { name: `Factuur ${invoiceNumbers.get(customer)} (PDF)` })
        .waitFor();
    }
    expect(await orderRow(page, 'Eva Nieuw').locator('[data-slot=invoice-status]').textContent()).toBe('Niet verstuurd');
  });

  it('keeps the invoice-fixed fields of an invoiced order shut, and names the credit note', async () => {
    const reference = await referenceOf(page, 'Anna Achterstal');
    await page.getByRole('button', { name: `Bestelling ${reference} bewerken` }).click();
    const dialog = page.getByRole('dialog', { name: 'Bestelling Bewerken' });
    await dialog.waitFor();
    expect(await dialog.locator('[data-slot=invoice-note]').textContent()).toBe(
      `Gefactureerd (${invoiceNumbers.get('Anna Achterstal')}): naam, e-mail, adres, postcode, plaats, aantal, KvK-nummer en btw-id staan op de factuur en zijn niet meer te wijzigen. Klopt er iets niet? Maak een creditnota en voer de bestelling opnieuw in.`,
    );
    for (const label of ['Naam', 'Email', 'Adres', 'Postcode', 'Plaats', 'Aantal kerstpakketten', 'KvK-nummer', 'Btw-id']) {
      expect(await dialog.getByLabel(label).isDisabled(), label).toBe(true);
    }
    expect(await dialog.getByLabel('Telefoon').isDisabled()).toBe(false);
    await dialog.getByRole('button', { name: 'Annuleren' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  it("takes a business customer's KvK number and VAT id in the dialog, and refuses what is neither", async () => {
    const reference = await referenceOf(page, 'Eva Nieuw');
    const edit = async () => {
      await page.getByRole('button', { name: `Bestelling ${reference} bewerken` }).click();
      const dialog = page.getByRole('dialog', { name: 'Bestelling Bewerken' });
      await dialog.waitFor();
      return dialog;
    };
    let dialog = await edit();
    const vat = dialog.getByLabel('Btw-id');
    expect(await vat.getAttribute('placeholder')).toBe('NL123456789B01');
    await vat.fill('NL12345');
    await dialog.getByRole('button', { name: 'Opslaan' }).click();
    await expect.poll(() => dialog.getByRole('alert').textContent()).toBe('Vul een geldig btw-id in, zoals NL123456789B01.');
    await vat.fill('nl 0098.76.543 b02');
    await dialog.getByLabel('KvK-nummer').fill('8765 4321');
    await settled(dialog);
    await screenshot(page, 'management-invoices-business-customer-desktop.png');
    await dialog.getByRole('button', { name: 'Opslaan' }).click();
    await dialog.waitFor({ state: 'detached' });
    const stored = async () => {
      const [row] = await server.deps.db
        .select({ kvk: orders.customerKvkNumber, vat: orders.customerVatId })
        .from(orders)
        .where(eq(orders.reference, reference));
      return row;
    };
    await expect.poll(stored).toEqual({ kvk: '87654321', vat: 'NL009876543B02' });
    // Opened again, the dialog shows the numbers as stored.
    dialog = await edit();
    await expect.poll(() => dialog.getByLabel('Btw-id').inputValue()).toBe('NL009876543B02');
    expect(await dialog.getByLabel('KvK-nummer').inputValue()).toBe('87654321');
    await dialog.getByRole('button', { name: 'Annuleren' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('refuses an amount outside 1–10 inline, and shows the server refusal when the order got its invoice meanwhile', async () => {
    const row = orderRow(page, 'Dirk Dubbel');
    const reference = await referenceOf(page, 'Dirk Dubbel');
    await page.getByRole('button', { name: `Bestelling ${reference} bewerken` }).click();
    const dialog = page.getByRole('dialog', { name: 'Bestelling Bewerken' });
    await dialog.waitFor();
    const amount = dialog.getByLabel('Aantal kerstpakketten');
    const save = dialog.getByRole('button', { name: 'Opslaan' });
    await amount.fill('15');
    await amount.blur();
    // Not silently made 1: the number stays, with the rule next to it, and nothing can be saved.
    expect(await dialog.locator('[data-slot=amount-error]').textContent()).toBe('Het aantal is 1 tot en met 10.');
    expect(await amount.inputValue()).toBe('15');
    expect(await amount.getAttribute('aria-invalid')).toBe('true');
    expect(await save.isDisabled()).toBe(true);
    await settled(dialog);
    await screenshot(page, 'management-invoices-amount-error-desktop.png');
    await amount.fill('0');
    expect(await dialog.locator('[data-slot=amount-error]').textContent()).toBe('Het aantal is 1 tot en met 10.');
    await amount.fill('6');
    expect(await dialog.locator('[data-slot=amount-error]').count()).toBe(0);

    // Another admin sends this order's invoice while the dialog is open: the server refuses the new amount.
    const id = (await server.deps.db.select({ id: orders.id }).from(orders).where(eq(orders.reference, reference)))[0]!.id;
    const sent = await api(page, `/orders/sendInvoice?id=${id}`, {});
    expect(sent.status).toBe(200);
    const invoiceNumber = sent.json.invoice_number as string;
    await save.click();
    const refusal = dialog.getByRole('alert');
    await expect
      .poll(() => refusal.textContent())
      .toBe(
        `Deze bestelling is al gefactureerd (factuur ${invoiceNumber}): naam, e-mail, adres, postcode, plaats, aantal, KvK-nummer en btw-id staan op de factuur en kunnen niet meer worden gewijzigd. Maak een creditnota en voer de bestelling opnieuw in. Telefoon, opmerkingen, tabler en betaald kun je wel aanpassen.`,
      );
    await screenshot(page, 'management-invoices-edit-refused-desktop.png');
    await dialog.getByRole('button', { name: 'Annuleren' }).click();
    await dialog.waitFor({ state: 'detached' });
    // The list caught up with the invoice, and the amount was not stored.
    await expect.poll(() => row.locator('[data-slot=invoice-status]').textContent()).toContain(invoiceNumber);
    expect(await row.locator('[data-slot=amount]').textContent()).toBe('4');
    invoiceNumbers.set('Dirk Dubbel', invoiceNumber);
  });

  it('makes a credit note after a confirmation: the order shows Gecrediteerd and both PDFs', async () => {
    const row = orderRow(page, 'Carla Credit');
    const reference = await referenceOf(page, 'Carla Credit');
    const invoiceNumber = invoiceNumbers.get('Carla Credit')!;
    await row.getByRole('button', { name: `Creditnota maken voor ${reference}` }).click();
    const confirm = page.getByRole('alertdialog');
    await confirm.getByRole('heading', { name: 'Creditnota maken?' }).waitFor();
    expect(await confirm.locator('p').textContent()).toBe(
      `Weet je zeker dat je een creditnota wilt maken voor factuur ${invoiceNumber} (bestelling ${reference} van Carla Credit)? De bestelling wordt daarmee geannuleerd en telt niet meer mee in de totalen. De creditnota wordt naar carla@example.nl gestuurd. Dit kan niet ongedaan worden gemaakt.`,
    );
    await settled(confirm);
    await screenshot(page, 'management-invoices-credit-confirm-desktop.png');
    await confirm.getByRole('button', { name: 'Creditnota maken' }).click();
    await confirm.waitFor({ state: 'detached' });
    await expect.poll(() => snackbar(page).textContent()).toContain('Creditnota staat klaar en wordt verstuurd zodra de mailserver bereikbaar is.');

    await row.locator('[data-slot=credited]').getByText('Gecrediteerd', { exact: true }).waitFor();
    expect(await row.getAttribute('data-credited')).toBe('true');
    // Neither a new send, a reminder nor a second credit note is offered any more.
    expect(await row.getByRole('button', { name: /versturen|Creditnota maken/ }).count()).toBe(0);
    const invoiceLink = row.getByRole('link', { name: `Factuur ${invoiceNumber} (PDF)` });
    const creditLink = row.getByRole('link', { name: /^Creditnota F\d{4}-\d{4} \(PDF\)$/ });
    // The visible words; the numbers are read out to screen readers only.
    const visibleWords = (a: Element) =>
      [...a.childNodes]
        .filter((n) => n.nodeType === Node.TEXT_NODE)
        .map((n) => n.textContent)
        .join('')
        .trim();
    expect(await invoiceLink.evaluate(visibleWords)).toBe('Factuur');
    expect(await creditLink.evaluate(visibleWords)).toBe('Creditnota');
    for (const link of [invoiceLink, creditLink]) {
      const response = await page.request.get(new URL((await link.getAttribute('href'))!, server.url).href);
      expect(response.status()).toBe(200);
      expect(response.headers()['content-type']).toBe('application/pdf');
      expect((await response.body()).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    }

    // The 'Gecrediteerd' filter shows it alone.
    await page.locator('#filter-cancelled').selectOption('true');
    await expect.poll(() => page.locator('tr[data-order]').count()).toBe(1);
    expect(await orderRow(page, 'Carla Credit').count()).toBe(1);
    await page.locator('#filter-cancelled').selectOption('false');
    await expect.poll(() => page.locator('tr[data-order]').count()).toBe(CUSTOMERS.length - 1);
    await page.locator('#filter-cancelled').selectOption('');
    await expect.poll(() => page.locator('tr[data-order]').count()).toBe(CUSTOMERS.length);
  });

  it('filters overdue orders and sends one a reminder', async () => {
    // 30 days ago: past the 14-day payment term. Dirk's invoice too, but credited Carla's stays out.
    const past = new Date(Date.now() - 30 * 24 * 60 * 60 * 1000).toISOString();
    for (const customer of ['Anna Achterstal', 'Carla Credit'] as const) {
      await server.deps.db.update(orders).set({ invoiceDate: past }).where(eq(orders.name, customer));
    }
    await page.getByRole('checkbox', { name: 'Achterstallig' }).click();
    await expect.poll(() => page.locator('tr[data-order]').count()).toBe(1);
    const row = orderRow(page, 'Anna Achterstal');
    expect(await row.count()).toBe(1);

    await row.getByRole('button', { name: 'Herinnering versturen' }).click();
    const confirm = page.getByRole('alertdialog');
    expect(await confirm.locator('p').textContent()).toBe(
      `Weet je zeker dat je een herinnering voor factuur ${invoiceNumbers.get('Anna Achterstal')} wilt versturen naar anna@example.nl?`,
    );
    await confirm.getByRole('button', { name: 'Versturen' }).click();
    await confirm.waitFor({ state: 'detached' });
    await expect.poll(() => snackbar(page).textContent()).toContain('Herinnering staat klaar en wordt verstuurd zodra de mailserver bereikbaar is.');
    await expect.poll(() => row.locator('[data-slot=reminders]').textContent()).toBe(`1 herinnering, laatste ${nlDay(new Date())}`);
    await page.getByRole('checkbox', { name: 'Achterstallig' }).click();
    await expect.poll(() => page.locator('tr[data-order]').count()).toBe(CUSTOMERS.length);

    // Dirk's invoice went out today: the question names the due date first, and 'Toch versturen' sends it anyway.
    const [dirk] = await server.deps.db.select({ invoiceDate: orders.invoiceDate }).from(orders).where(eq(orders.name, 'Dirk Dubbel'));
    const due = formatDateLong(paymentDueDate(new Date(dirk!.invoiceDate!), 14));
    const early = orderRow(page, 'Dirk Dubbel');
    await early.getByRole('button', { name: 'Herinnering versturen' }).click();
    await confirm.getByRole('heading', { name: 'Herinnering nu al versturen?' }).waitFor();
    expect(await confirm.locator('p').textContent()).toBe(
      `De betaaltermijn van factuur ${invoiceNumbers.get('Dirk Dubbel')} loopt nog tot ${due}. Weet je zeker dat je nu al een herinnering wilt versturen naar dirk@example.nl?`,
    );
    await confirm.getByRole('button', { name: 'Toch versturen' }).click();
    await confirm.waitFor({ state: 'detached' });
    await expect.poll(() => early.locator('[data-slot=reminders]').textContent()).toBe(`1 herinnering, laatste ${nlDay(new Date())}`);
  });

  it('sends reminders in bulk, lists the orders that could not get one, and sends the one within its term when asked', async () => {
    for (const customer of ['Anna Achterstal', 'Bert Betaler', 'Carla Credit', 'Eva Nieuw'] as const) await select(page, customer);
    await bulkBar(page).getByRole('button', { name: 'Herinneringen versturen' }).click();
    const confirm = page.getByRole('alertdialog');
    await confirm.getByRole('heading', { name: 'Herinneringen versturen voor 4 bestellingen?' }).waitFor();
    await confirm.getByRole('button', { name: 'Herinneringen versturen' }).click();
    const result = page.getByRole('dialog', { name: 'Herinneringen versturen: resultaat' });
    await result.waitFor();
    expect(await result.locator('[data-slot=bulk-summary]').textContent()).toBe('1 gelukt, 3 mislukt');
    // Bert's invoice went out today: its term runs for 14 more days (docs/decisions/059).
    const [bert] = await server.deps.db.select({ invoiceDate: orders.invoiceDate }).from(orders).where(eq(orders.name, 'Bert Betaler'));
    const due = formatDateLong(paymentDueDate(new Date(bert!.invoiceDate!), 14));
    // In table order (newest first).
    expect(await result.locator('[data-slot=bulk-failures] li').allTextContents()).toEqual([
      `${await referenceOf(page, 'Eva Nieuw')}: Deze bestelling heeft nog geen factuur: verstuur eerst de factuur.`,
      `${await referenceOf(page, 'Carla Credit')}: Deze bestelling is gecrediteerd: er kan geen factuur of herinnering meer voor worden verstuurd.`,
      `${await referenceOf(page, 'Bert Betaler')}: De betaaltermijn van factuur ${invoiceNumbers.get('Bert Betaler')} loopt nog tot ${due}: een herinnering is nu nog niet nodig.`,
    ]);
    const notDue = result.locator('[data-slot=bulk-not-due]');
    expect(await notDue.locator('p').textContent()).toBe('Bij 1 bestelling loopt de betaaltermijn nog. Wil je die toch nu al een herinnering sturen?');
    await settled(result);
    await screenshot(page, 'management-invoices-bulk-result-desktop.png');
    expect(await blockingAxeViolations(page, 'bulk reminder result, 1280 px')).toBe('');
    await notDue.getByRole('button', { name: 'Toch versturen (1)' }).click();
    await expect.poll(() => result.locator('[data-slot=bulk-summary]').textContent()).toBe('1 gelukt, 0 mislukt');
    expect(await notDue.count()).toBe(0);
    await result.getByRole('button', { name: 'Sluiten' }).first().click();
    await result.waitFor({ state: 'detached' });
    await expect
      .poll(() => orderRow(page, 'Anna Achterstal').locator('[data-slot=reminders]').textContent())
      .toBe(`2 herinneringen, laatste ${nlDay(new Date())}`);
    await expect.poll(() => orderRow(page, 'Bert Betaler').locator('[data-slot=reminders]').textContent()).toBe(`1 herinnering, laatste ${nlDay(new Date())}`);
  });

  it('selects the whole page with the header checkbox, and unticking one leaves the others', async () => {
    // The credited order drops out of the filter: four orders are on the page.
    await page.locator('#filter-cancelled').selectOption('false');
    await expect.poll(() => page.locator('tr[data-order]').count()).toBe(CUSTOMERS.length - 1);
    const pageBox = page.getByRole('checkbox', { name: 'Selecteer alle bestellingen op deze pagina' });
    await select(page, 'Bert Betaler');
    expect(await pageBox.getAttribute('aria-checked')).toBe('mixed');
    await pageBox.click();
    await expect.poll(() => bulkBar(page).locator('[data-slot=bulk-count]').textContent()).toBe('4 geselecteerd');
    expect(await pageBox.getAttribute('aria-checked')).toBe('true');
    await select(page, 'Eva Nieuw');
    await expect.poll(() => bulkBar(page).locator('[data-slot=bulk-count]').textContent()).toBe('3 geselecteerd');
    expect(await pageBox.getAttribute('aria-checked')).toBe('mixed');
    // Another filter is another list: the selection starts again.
    await page.locator('#filter-cancelled').selectOption('');
    await expect.poll(() => page.locator('tr[data-order]').count()).toBe(CUSTOMERS.length);
    expect(await bulkBar(page).count()).toBe(0);
    await select(page, 'Bert Betaler');
    await bulkBar(page).getByRole('button', { name: 'Selectie wissen' }).click();
    expect(await bulkBar(page).count()).toBe(0);
  });

  it('marks orders paid in bulk after a confirmation naming the count, with the paid date on each', async () => {
    await page.getByRole('checkbox', { name: 'Selecteer alle bestellingen op deze pagina' }).click();
    await select(page, 'Carla Credit');
    await expect.poll(() => bulkBar(page).locator('[data-slot=bulk-count]').textContent()).toBe('4 geselecteerd');
    await screenshot(page, 'management-invoices-orders-desktop.png', { fullPage: true });
    await screenshot(page.getByRole('tabpanel'), 'management-invoices-orders-tab-desktop.png');
    expect(await blockingAxeViolations(page, 'orders tab with a selection, 1280 px')).toBe('');

    await bulkBar(page).getByRole('button', { name: 'Markeer betaald' }).click();
    const confirm = page.getByRole('alertdialog');
    await confirm.getByRole('heading', { name: '4 bestellingen als betaald markeren?' }).waitFor();
    expect(await blockingAxeViolations(page, 'bulk confirmation, 1280 px')).toBe('');
    await confirm.getByRole('button', { name: 'Markeer betaald' }).click();
    const result = page.getByRole('dialog', { name: 'Markeer betaald: resultaat' });
    await result.waitFor();
    expect(await result.locator('[data-slot=bulk-summary]').textContent()).toBe('4 gelukt, 0 mislukt');
    expect(await blockingAxeViolations(page, 'bulk result, 1280 px')).toBe('');
    await result.getByRole('button', { name: 'Sluiten' }).first().click();
    await result.waitFor({ state: 'detached' });

    for (const customer of ['Anna Achterstal', 'Bert Betaler', 'Dirk Dubbel', 'Eva Nieuw'] as const) {
      const row = orderRow(page, customer);
      await expect.poll(() => row.getByRole('switch').getAttribute('aria-checked')).toBe('true');
      expect(await row.locator('[data-slot=paid-at]').textContent()).toBe(`op ${nlDay(new Date())}`);
      // A paid order needs no reminder.
      expect(await row.getByRole('button', { name: 'Herinnering versturen' }).count()).toBe(0);
    }
    expect(await orderRow(page, 'Carla Credit').getByRole('switch').getAttribute('aria-checked')).toBe('false');
    // Nothing is overdue any more.
    await page.getByRole('checkbox', { name: 'Achterstallig' }).click();
    await page.locator('td').getByText('Geen bestellingen gevonden.').waitFor();
    await page.getByRole('checkbox', { name: 'Achterstallig' }).click();
    await expect.poll(() => page.locator('tr[data-order]').count()).toBe(CUSTOMERS.length);
    await screenshot(page, 'management-invoices-paid-desktop.png', { fullPage: true });
  });

  it('fits 375 px: cards with the same states and a selection', async () => {
    await page.setViewportSize(VIEWPORTS.phone);
    const card = page.locator('[data-order-card]').filter({ hasText: 'Carla Credit' });
    await card.waitFor();
    expect(await card.locator('[data-slot=credited]').textContent()).toBe('Gecrediteerd');
    await card.getByRole('link', { name: /^Creditnota F\d{4}-\d{4} \(PDF\)$/ }).waitFor();
    const anna = page.locator('[data-order-card]').filter({ hasText: 'Anna Achterstal' });
    expect(await anna.locator('[data-slot=reminders]').textContent()).toBe(`2 herinneringen, laatste ${nlDay(new Date())}`);
    await anna.getByRole('checkbox', { name: `Selecteer ${await anna.getAttribute('data-order-card')}` }).click();
    await expect.poll(() => bulkBar(page).locator('[data-slot=bulk-count]').textContent()).toBe('1 geselecteerd');
    // The bar stays in view, just under the site's header, while the list scrolls under it: here the last
    // card is halfway down the screen and the first has gone up under the header.
    await page.evaluate(() => {
      const cards = document.querySelectorAll('[data-order-card]');
      window.scrollTo(0, cards[cards.length - 1]!.getBoundingClientRect().top + window.scrollY - window.innerHeight / 2);
    });
    const placement = () =>
      page.evaluate(() => {
        const header = document.querySelector('[data-slot=site-header]')!.getBoundingClientRect();
        const bar = document.querySelector('[data-slot=bulk-bar]')!;
        const box = bar.getBoundingClientRect();
        const firstCard = document.querySelector('[data-order-card]')!.getBoundingClientRect();
        const onTop = bar.contains(document.elementFromPoint(box.left + 8, box.top + box.height / 2));
        return { listScrolled: firstCard.top < header.bottom, top: Math.round(box.top - header.bottom), onTop };
      });
    await expect.poll(placement).toEqual({ listScrolled: true, top: 0, onTop: true });
    // One row of actions that scrolls sideways: the bar keeps to a small part of the screen.
    expect(await bulkBar(page).evaluate((bar) => bar.getBoundingClientRect().height)).toBeLessThan(110);
    await screenshot(page, 'management-invoices-bulk-bar-sticky-phone.png');
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'management-invoices-orders-phone.png', { fullPage: true });
    await screenshot(page.getByRole('tabpanel'), 'management-invoices-orders-tab-phone.png');
    // Nothing sticks out sideways, apart from what scrolls inside its own region (the message names it).
    expect(await overflowingElements(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    expect(await blockingAxeViolations(page, 'orders tab, 375 px')).toBe('');
    await bulkBar(page).getByRole('button', { name: 'Markeer onbetaald' }).click();
    const confirm = page.getByRole('alertdialog');
    await confirm.getByRole('heading', { name: '1 bestelling als onbetaald markeren?' }).waitFor();
    expect(await confirm.locator('p').textContent()).toBe('De betaaldatum van deze bestelling vervalt.');
    await settled(confirm);
    await screenshot(page, 'management-invoices-confirm-phone.png');
    await confirm.getByRole('button', { name: 'Annuleren' }).click();
    await confirm.waitFor({ state: 'detached' });
    await page.setViewportSize(VIEWPORTS.desktop);
    expect(pageErrors).toEqual([]);
  });
});
