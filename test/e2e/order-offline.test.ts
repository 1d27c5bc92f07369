import { createServer, type Server, type Socket, connect } from 'node:net';
import { eq } from 'drizzle-orm';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { rateLimits, settings, tablers } from '../../src/db/schema';
import { launchChromium, openWatchedPage, screenshot, signIn, startTestServer, VIEWPORTS } from './browser';

/**
 * DESIGN §6 "The door" (docs/decisions/069): the member app /order opens and takes orders without a connection after
 * one visit, keeps them in its outbox over a reload, and sends each exactly once when the connection returns —
 * in Chromium against the real Node server and the built site with its service worker.
 */

let browser: Browser;
let server: Awaited<ReturnType<typeof startTestServer>>;
let link: Link;

const TABLER = 'Jan de Vries';
// Not the build's seed name: the page offline must still show the club's own.
const CLUB = 'Ronde Tafel 77 Franeker';
const SAVED = 'Opgeslagen op deze telefoon; wordt verstuurd zodra er verbinding is.';

/**
 * The phone's connection: a TCP relay in front of the server that can be cut. Chromium's offline emulation does
 * not hold for a page its service worker controls (playwright#2311), so the test cuts the line itself as well.
 */
interface Link {
  url: string;
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

async function openLink(port: number): Promise<Link> {
  const open = new Set<Socket>();
  let up = true;
  const relay: Server = createServer((client) => {
    if (!up) return client.resetAndDestroy();
    const upstream = connect(port, '127.0.0.1');
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      socket.on('error', () => undefined);
    }
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  const address = relay.address();
  if (address === null || typeof address === 'string') throw new Error('the relay has no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    cut() {
      up = false;
      for (const socket of open) socket.destroy();
    },
    restore() {
      up = true;
    },
    close: () => new Promise<void>((resolve) => relay.close(() => resolve())),
  };
}

beforeAll(async () => {
  server = await startTestServer();
  link = await openLink(server.port);
  browser = await launchChromium();
  const now = new Date().toISOString();
  await server.deps.db.insert(tablers).values({ name: TABLER, createdAt: now, updatedAt: now });
  await server.deps.db.update(settings).set({ value: CLUB }).where(eq(settings.key, 'club_name'));
  server.deps.settingsCache.invalidate();
});

afterAll(async () => {
  await browser?.close();
  await link?.close();
  await server?.stop();
});

beforeEach(async () => {
  await server.deps.db.delete(rateLimits);
});

/** The orders of `names` on the server, as the back-office lists them (GET /orders as admin). */
async function serverOrders(names: string[]): Promise<{ name: string; reference: string }[]> {
  const { context, page } = await openWatchedPage(browser);
  try {
    await signIn(page, server.url, 'admin', 'e2e-admin-password');
    const all = await page.evaluate(async () => {
      const response = await fetch('/orders');
      return (await response.json()) as { name: string; reference: string }[];
    });
    return all.filter((order) => names.includes(order.name)).map(({ name, reference }) => ({ name, reference }));
  } finally {
    await context.close();
  }
}

/** Opens /order online, passes the gate and waits until the service worker controls the page. */
async function openMemberApp(): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const opened = await openWatchedPage(browser, { viewport: VIEWPORTS.phone });
  const { page } = opened;
  // No address lookups leave the test (the form's address field searches as it is typed in).
  await page.route('**/api/geocode/search**', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: '[]' }));
  await page.goto(`${link.url}/order`);
  // The club's own name differs from the build's: the page is rendered afresh once the settings are in, and only
  // then is the form there to type in.
  await page.getByText(`Kerstpakketten van ${CLUB}`).waitFor();
  // At the gate the page is not yet the member app: no manifest, no service worker.
  expect(await page.locator('link[rel=manifest]').count()).toBe(0);
  await page.getByLabel('Wachtwoord', { exact: true }).fill('jan de vries');
  await page.getByRole('button', { name: 'Doorgaan' }).click();
  await page.getByText(`Bestelling voor tabler ${TABLER}`).waitFor();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  return opened;
}

async function takeOrder(page: Page, name: string, quantity = '2') {
  await page.getByLabel('Naam', { exact: true }).fill(name);
  await page.getByLabel('Email', { exact: true }).fill('klant@example.nl');
  await page.getByLabel('Telefoon', { exact: true }).fill('0517 412345');
  await page.getByRole('combobox', { name: 'Adres' }).fill('Voorstraat 12');
  await page.getByLabel('Postcode', { exact: true }).fill('8861 BK');
  await page.getByLabel('Plaats', { exact: true }).fill('Harlingen');
  await page.getByLabel('Aantal kerstpakketten', { exact: true }).fill(quantity);
  await page.getByRole('button', { name: 'Bestelling Plaatsen' }).click();
}

const outboxCount = (page: Page) => page.locator('[data-slot=order-outbox] [role=status]').textContent();

describe('the member app without a connection', () => {
  it('opens offline, keeps three orders over a reload and sends each exactly once when the connection returns', async () => {
    const { context, page, errors } = await openMemberApp();
    const names = ['Offline Een', 'Offline Twee', 'Offline Drie'];

    await context.setOffline(true);
    link.cut();
    for (const name of names) {
      await takeOrder(page, name);
      await page.getByRole('heading', { name: 'Bestelling Opgeslagen' }).waitFor();
      const confirmation = page.locator('[data-slot=order-confirmation]');
      expect(await confirmation.getByRole('status').textContent()).toBe(SAVED);
      expect(await confirmation.locator('[data-field=Bestelnummer]').count()).toBe(0);
      expect(await confirmation.locator('[data-field=Naam] dd').textContent()).toBe(name);
      if (name === names[0]) {
        await page.evaluate(() => window.scrollTo(0, 0));
        await screenshot(page, 'order-saved-phone.png', { fullPage: true });
      }
      await page.getByRole('button', { name: 'Nog een bestelling' }).click();
      await page.getByText(`Bestelling voor tabler ${TABLER}`).waitFor();
    }
    await expect.poll(() => outboxCount(page)).toBe('Nog te versturen: 3');
    expect(await page.locator('[data-slot=outbox-failure]').allTextContents()).toEqual([
      'Niet verstuurd: Geen verbinding met de server.',
      'Niet verstuurd: Geen verbinding met de server.',
      'Niet verstuurd: Geen verbinding met de server.',
    ]);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'order-outbox-phone.png', { fullPage: true });

    // A reload without a connection: the page, its code and the club's settings come from the service worker's
    // caches alone (the browser's own cache, which a phone may have emptied, is cleared first).
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.clearBrowserCache');
    await cdp.detach();
    await page.reload();
    await page.getByRole('heading', { name: 'Kerstpakket Bestellen', level: 1 }).waitFor();
    await page.getByText(`Bestelling voor tabler ${TABLER}`).waitFor();
    await expect.poll(() => outboxCount(page)).toBe('Nog te versturen: 3');
    expect(await page.getByText(`Kerstpakketten van ${CLUB}`).count()).toBe(1);
    expect(await serverOrders(names)).toEqual([]);

    // The connection returns: the page's own next try sends them, oldest first. It does not wait for the browser's
    // `online`, which this Chromium does not fire on a page reloaded offline (nor does a phone that never said it
    // was offline); the tries are at most 30 s apart (retryDelayMs).
    link.restore();
    await context.setOffline(false);
    await expect.poll(() => page.locator('[data-slot=order-outbox]').textContent(), { timeout: 35_000 }).toBe('Alle bestellingen zijn verstuurd.');
    const sent = await serverOrders(names);
    expect(sent.map((order) => order.name).sort()).toEqual([...names].sort());

    // Nothing is sent again on opening the page once more.
    await page.reload();
    await page.getByText(`Bestelling voor tabler ${TABLER}`).waitFor();
    expect(await page.locator('[data-slot=order-outbox]').count()).toBe(0);
    expect(await serverOrders(names)).toEqual(sent);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('sends an order whose answer was lost again with the same key, and the server keeps one order', async () => {
    const { context, page, errors } = await openMemberApp();
    const keys: string[] = [];
    let first = true;
    await page.route('**/orders/create', async (route) => {
      keys.push((await route.request().headerValue('idempotency-key')) ?? '');
      if (!first) return route.continue();
      first = false;
      // The request reaches the server and the order is made; the answer never reaches the phone.
      await route.fetch();
      await route.abort('connectionreset');
    });

    await takeOrder(page, 'Antwoord Kwijt');
    await page.getByRole('heading', { name: 'Bestelling Opgeslagen' }).waitFor();
    await expect.poll(() => outboxCount(page)).toBe('Nog te versturen: 1');
    const made = await serverOrders(['Antwoord Kwijt']);
    expect(made).toHaveLength(1);

    await page.getByRole('button', { name: 'Verstuur nu' }).click();
    await expect.poll(() => page.locator('[data-slot=order-outbox]').textContent()).toBe('Alle bestellingen zijn verstuurd.');
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(await serverOrders(['Antwoord Kwijt'])).toEqual(made);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('keeps a refused order out of the outbox, and its service worker away from the other pages', async () => {
    const { context, page, errors } = await openMemberApp();
    await takeOrder(page, 'Te Veel', '501');
    await expect.poll(() => page.locator('[role=alert][data-slot=alert]').textContent()).toContain('Het aantal kerstpakketten is maximaal 500.');
    expect(await page.locator('[data-slot=order-outbox]').count()).toBe(0);
    expect(await page.getByLabel('Naam', { exact: true }).inputValue()).toBe('Te Veel');
    expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toBe(`${link.url}/order-sw.js`);
    expect(await page.locator('link[rel=manifest]').getAttribute('href')).toBe('/order.webmanifest');

    // The home page is outside its scope: not served by it, and it links no manifest.
    await page.goto(`${link.url}/`);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    expect(await page.evaluate(() => navigator.serviceWorker.controller)).toBeNull();
    expect(await page.locator('link[rel=manifest]').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});
