import type { Browser, Page, Request, Route } from 'playwright-core';
import { eq } from 'drizzle-orm';
import type { OrderStatusView as OrderStatus } from '../../src/features/online-payments/online-payments.schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sealSettingPassword } from '../../src/features/settings/setting-passwords';
import { settings } from '../../src/db/schema';
import { startFakeMollie, type FakeMollie } from '../support/fake-mollie';
import { axeViolations, describeViolations } from './axe';
import { launchChromium, openWatchedPage, overflowingElements, screenshot, startTestServer, VIEWPORTS } from './browser';

/**
 * The customer's order page /bestelling/<token> (docs/architecture.md §6 "The order page and online payment",
 * docs/decisions/067) as a PAGE TEST WITH THE API STOOD IN: the built page in Chromium against the real Node
 * server, but its three calls (GET /api/order-status/<token>, GET …/invoice.pdf, POST …/pay) are answered in the
 * browser with the contract's JSON, and Mollie's checkout is a page fulfilled in the browser too. The payment's
 * way through the server is tested where the server side is.
 */

let browser: Browser;
let server: Awaited<ReturnType<typeof startTestServer>>;

const TOKEN = 'qR7vXk2mN9pL4sT8wY3zA6bC1dE5fG0h';
const ORDER_PATH = `/bestelling/${TOKEN}`;
const API = `/api/order-status/${TOKEN}`;
const NOTE = 'Je betaalt veilig via Mollie (iDEAL, Wero of een andere methode die de club aanbiedt).';

const OPEN: OrderStatus = {
  reference: 'KP-2026-0001',
  name: 'Anna de Vries',
  amount: 3,
  amount_incl: 272.25,
  paid: false,
  paid_at: null,
  cancelled: false,
  invoice_number: null,
  refunded_amount: 0,
  can_pay: true,
};
const PAID: OrderStatus = { ...OPEN, paid: true, paid_at: '2026-11-22T10:15:00.000Z', invoice_number: 'F2026-0001', can_pay: false };

type Answer = { status: number; body: unknown };
const found = (order: OrderStatus): Answer => ({ status: 200, body: order });
const refusal = (status: number, error: string, code: string): Answer => ({ status, body: { success: false, error, code } });

/**
 * Stands in for the server's API: `status` answers each GET of the order (one answer after another, the last
 * one repeated), `pay` each POST; `hold` keeps a call waiting until released. Records the calls made.
 */
async function standInApi(page: Page, options: { status: Answer[]; pay?: Answer[]; holdStatus?: Promise<void>; holdPay?: Promise<void> }) {
  const calls: { method: string; path: string; body: string | null }[] = [];
  let statusCount = 0;
  let payCount = 0;
  const pick = (answers: Answer[], index: number) => answers[Math.min(index, answers.length - 1)]!;
  await page.route(`**/api/order-status/**`, async (route: Route, request: Request) => {
    const path = new URL(request.url()).pathname;
    calls.push({ method: request.method(), path, body: request.postData() });
    let answer: Answer;
    if (request.method() === 'GET' && path === API) {
      await options.holdStatus;
      answer = pick(options.status, statusCount++);
    } else if (request.method() === 'POST' && path === `${API}/pay`) {
      await options.holdPay;
      answer = pick(options.pay ?? [refusal(500, 'Server error', 'SERVER_ERROR')], payCount++);
    } else {
      answer = refusal(404, 'Not found', 'NOT_FOUND');
    }
    await route.fulfill({
      status: answer.status,
      contentType: 'application/json',
      headers: { 'Cache-Control': 'no-store' },
      body: JSON.stringify(answer.body),
    });
  });
  return calls;
}

async function openOrderPage(viewport: { width: number; height: number }, api: Parameters<typeof standInApi>[1], path = ORDER_PATH) {
  const { context, page, errors } = await openWatchedPage(browser, { viewport });
  page.on('console', (message) => {
    // A 404 of the stood-in API is logged as a failed load; anything else (a hydration mismatch) is an error.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) errors.push(message.text());
  });
  const calls = await standInApi(page, api);
  await page.goto(`${server.url}${path}`);
  return { context, page, errors, calls };
}

async function expectAccessible(page: Page) {
  const violations = await axeViolations(page);
  expect(violations, describeViolations(violations)).toEqual([]);
}

const stateBadge = (page: Page) => page.locator('[data-slot=order-state] [data-slot=badge]');
const payButton = (page: Page) => page.getByRole('button', { name: 'Betalen met iDEAL' });

let mollie: FakeMollie;

beforeAll(async () => {
  mollie = await startFakeMollie();
  server = await startTestServer({ MOLLIE_API_URL: mollie.url });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await mollie?.close();
});

describe('the order page (page test, API stood in)', () => {
  it('loads an open order on a phone, busy until it arrives, and pays: POST …/pay, then on to the checkout', async () => {
    let releaseStatus = () => {};
    let releasePay = () => {};
    const checkout = `${server.url}/checkout-stand-in/tr_7UhSN1zuXS`;
    const { context, page, errors, calls } = await openOrderPage(VIEWPORTS.phone, {
      status: [found(OPEN)],
      pay: [{ status: 200, body: { checkout_url: checkout } }],
      holdStatus: new Promise((resolve) => (releaseStatus = resolve)),
      holdPay: new Promise((resolve) => (releasePay = resolve)),
    });
    await page.route(`${server.url}/checkout-stand-in/**`, (route) =>
      route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>Mollie</title><h1>Betaal met iDEAL</h1>' }),
    );

    // The head: the page's title, and no search engine.
    expect(await page.title()).toBe('Je bestelling | Kerstactie Ronde Tafel 144 Harlingen');
    expect(await page.locator('meta[name="robots"]').getAttribute('content')).toBe('noindex');

    // While the order loads: announced as busy, the card already in its place.
    const loading = page.getByRole('status').filter({ hasText: 'Je bestelling wordt geladen...' });
    await loading.waitFor();
    expect(await page.locator('[aria-busy=true]').count()).toBe(1);
    const cardWhileLoading = await page.locator('[data-slot=order-status] > :nth-child(2)').boundingBox();
    await screenshot(page, 'order-page-loading-375.png');
    releaseStatus();

    await page.getByRole('heading', { level: 1, name: 'Je bestelling' }).waitFor();
    await page.getByText('Bestelnummer KP-2026-0001').waitFor();
    expect(await loading.count()).toBe(0);
    expect(await page.locator('[aria-busy=true]').count()).toBe(0);
    // The card starts where the loading card stood: nothing jumps.
    const cardLoaded = await page.locator('[data-slot=order-status] > :nth-child(2)').boundingBox();
    expect(Math.abs((cardLoaded?.y ?? 0) - (cardWhileLoading?.y ?? 100))).toBeLessThan(1);
    await page.getByText('Anna de Vries').waitFor();
    await page.getByText('Aantal kerstpakketten: 3').waitFor();
    await page.getByText('Totaal inclusief btw: € 272,25').waitFor();
    expect(await stateBadge(page).textContent()).toBe('Open');
    expect(await page.getByText('Factuurnummer').count()).toBe(0);
    expect(await page.getByText('Terugbetaald').count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Factuur downloaden (PDF)' }).count()).toBe(0);
    await page.getByText(NOTE).waitFor();
    expect(await overflowingElements(page)).toEqual([]);
    await expectAccessible(page);
    await screenshot(page, 'order-page-open-375.png', { fullPage: true });

    // Paying: busy while the server makes the payment, then the browser leaves for the checkout.
    await payButton(page).click();
    const busy = page.getByRole('button', { name: 'Betaling wordt gestart...' });
    await busy.waitFor();
    expect(await busy.isDisabled()).toBe(true);
    expect(await busy.getAttribute('aria-busy')).toBe('true');
    releasePay();
    await page.waitForURL(checkout);
    await page.getByRole('heading', { name: 'Betaal met iDEAL' }).waitFor();
    expect(calls.filter((call) => call.method === 'POST')).toEqual([{ method: 'POST', path: `${API}/pay`, body: null }]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows the server’s Dutch refusal beside the button and lets the customer try again', async () => {
    const provider = 'De betaling kon niet worden aangemaakt bij de betaalprovider. Probeer het later opnieuw.';
    const paid = 'Deze bestelling is al betaald.';
    const { context, page, errors, calls } = await openOrderPage(VIEWPORTS.phone, {
      status: [found(OPEN), found({ ...OPEN, paid: true, paid_at: '2026-11-27T09:00:00.000Z', can_pay: false })],
      pay: [
        refusal(502, provider, 'PAYMENT_PROVIDER_FAILED'),
        refusal(429, 'Too many requests. Please wait a moment and try again.', 'RATE_LIMITED'),
        refusal(409, paid, 'ORDER_ALREADY_PAID'),
      ],
    });
    await payButton(page).click();
    const alert = page.getByRole('alert');
    await alert.filter({ hasText: provider }).waitFor();
    // The button is back, with the focus on it, and the next try asks the server again.
    expect(await payButton(page).isEnabled()).toBe(true);
    await expect.poll(() => payButton(page).evaluate((button) => button === document.activeElement)).toBe(true);
    // axe judges the button at rest, not under the mouse that clicked it.
    await page.mouse.move(0, 0);
    await expectAccessible(page);
    await screenshot(page, 'order-page-pay-refused-375.png', { fullPage: true });

    await payButton(page).click();
    await alert.filter({ hasText: 'Te veel pogingen om te betalen. Wacht een paar minuten en probeer het dan opnieuw.' }).waitFor();

    // Paid meanwhile (by transfer): the reason stays, and the page asks again and shows the order as it is now.
    await payButton(page).click();
    await alert.filter({ hasText: paid }).waitFor();
    await page.getByText('op 27 november 2026').waitFor();
    expect(await stateBadge(page).textContent()).toBe('Betaald');
    expect(await payButton(page).count()).toBe(0);
    expect(await alert.textContent()).toBe(paid);
    expect(calls.filter((call) => call.method === 'POST').length).toBe(3);
    expect(calls.filter((call) => call.method === 'GET').length).toBe(2);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows each state on a wide screen: paid with its invoice, partly refunded, refunded, cancelled', async () => {
    const { context, page, errors } = await openOrderPage(VIEWPORTS.desktop, {
      status: [
        found(PAID),
        found({ ...PAID, refunded_amount: 10 }),
        found({ ...PAID, refunded_amount: 272.25 }),
        found({ ...OPEN, cancelled: true, can_pay: false }),
      ],
    });
    await page.getByText('Bestelnummer KP-2026-0001').waitFor();
    expect(await stateBadge(page).textContent()).toBe('Betaald');
    expect(await page.locator('[data-slot=order-state]').textContent()).toBe('Status: Betaald op 22 november 2026');
    await page.getByText('Factuurnummer F2026-0001').waitFor();
    const invoice = page.getByRole('link', { name: 'Factuur downloaden (PDF)' });
    expect(await invoice.getAttribute('href')).toBe(`${API}/invoice.pdf`);
    expect(await payButton(page).count()).toBe(0);
    expect(await page.getByText(NOTE).count()).toBe(0);
    expect(await overflowingElements(page)).toEqual([]);
    await expectAccessible(page);
    await screenshot(page, 'order-page-paid-1280.png', { fullPage: true });

    await page.reload();
    await page.getByText('Terugbetaald: € 10,00').waitFor();
    expect(await stateBadge(page).textContent()).toBe('Betaald');

    await page.reload();
    await page.getByText('Bestelnummer KP-2026-0001').waitFor();
    expect(await stateBadge(page).textContent()).toBe('Terugbetaald');
    expect(await page.getByText('Terugbetaald:').count()).toBe(0);
    expect(await page.getByText('op 22 november 2026').count()).toBe(0);

    await page.reload();
    await page.getByText('Bestelnummer KP-2026-0001').waitFor();
    expect(await stateBadge(page).textContent()).toBe('Geannuleerd');
    expect(await payButton(page).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Factuur downloaden (PDF)' }).count()).toBe(0);
    await expectAccessible(page);
    await screenshot(page, 'order-page-cancelled-1280.png');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('says an unknown link finds no order, and offers a retry when the order could not be loaded', async () => {
    const unknown = await openOrderPage(VIEWPORTS.phone, { status: [refusal(404, 'Bestelling niet gevonden', 'NOT_FOUND')] });
    await unknown.page.getByRole('heading', { level: 1, name: 'Bestelling niet gevonden' }).waitFor();
    await unknown.page.getByText('Controleer de link in je e-mail.').waitFor();
    await expectAccessible(unknown.page);
    await screenshot(unknown.page, 'order-page-not-found-375.png');
    // The page without a token asks nothing and says the same.
    await unknown.page.goto(`${server.url}/bestelling`);
    await unknown.page.getByRole('heading', { level: 1, name: 'Bestelling niet gevonden' }).waitFor();
    expect(unknown.calls).toHaveLength(1);
    expect(unknown.errors).toEqual([]);
    await unknown.context.close();

    const failing = await openOrderPage(VIEWPORTS.desktop, { status: [refusal(500, 'Server error', 'SERVER_ERROR'), found(OPEN)] });
    await failing.page
      .getByRole('alert')
      .filter({ hasText: 'Je bestelling kon niet worden geladen. Controleer je internetverbinding en probeer het opnieuw.' })
      .waitFor();
    await expectAccessible(failing.page);
    await screenshot(failing.page, 'order-page-load-failed-1280.png');
    await failing.page.getByRole('button', { name: 'Opnieuw proberen' }).click();
    await failing.page.getByText('Totaal inclusief btw: € 272,25').waitFor();
    expect(await failing.page.getByRole('alert').count()).toBe(0);
    expect(failing.errors).toEqual([]);
    await failing.context.close();
  });
});

describe('paying through Mollie (the real server and the Mollie stand-in)', () => {
  it('takes the customer from the order page through the checkout and back, where the order shows Betaald', async () => {
    const { db, secretKey, settingsCache } = server.deps;
    await db.update(settings).set({ value: 'true' }).where(eq(settings.key, 'online_payments'));
    await db
      .update(settings)
      .set({ value: await sealSettingPassword(secretKey, `test_${'e2eMollie1'.repeat(3)}`) })
      .where(eq(settings.key, 'mollie_api_key'));
    settingsCache.invalidate();
    const login = await fetch(`${server.url}/api/account/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'e2e-admin-password' }),
    });
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
    const created = await fetch(`${server.url}/orders/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({
        name: 'Mila Bakker',
        email: 'mila@example.nl',
        phone: '0612345678',
        address: 'Voorstraat 1',
        postal_code: '8861 BL',
        city: 'Harlingen',
        amount: 2,
      }),
    });
    const { order_url } = (await created.json()) as { order_url: string };

    const { context, page, errors } = await openWatchedPage(browser, { viewport: VIEWPORTS.phone });
    await page.goto(order_url);
    await expect.poll(() => stateBadge(page).textContent()).toBe('Open');
    await payButton(page).click();
    // Mollie's hosted checkout (the stand-in's test-mode page): the customer chooses the outcome.
    await page.waitForURL(`${mollie.origin}/checkout/**`);
    await page.getByLabel('paid', { exact: true }).check();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(order_url);
    await expect.poll(() => stateBadge(page).textContent()).toBe('Betaald');
    expect(await payButton(page).count()).toBe(0);
    // Mollie's webhook reached the server on its own, before the customer came back.
    expect(mollie.webhookDeliveries.map((d) => d.status)).toEqual([200]);
    await screenshot(page, 'order-page-paid-through-mollie-375.png');
    expect(errors).toEqual([]);
    await context.close();
  });
});
