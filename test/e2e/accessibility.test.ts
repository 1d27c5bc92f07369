import { eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { rateLimits, settings, tablers } from '../../src/db/schema';
import { blockingAxeViolations } from './axe';
import { launchChromium, startTestServer, VIEWPORTS, watchNetwork } from './browser';

/**
 * docs/decisions/036: every public page, the order form in each of its states, login and registration pass
 * axe-core's WCAG 2.1 A/AA and best-practice rules without a serious or critical violation, on the
 * narrowest phone we support and on a desktop, and nothing is wider than a 360 px screen.
 */

const NARROW = { width: 360, height: 800 };
const TABLER = 'Jan de Vries';

let browser: Browser;
let server: Awaited<ReturnType<typeof startTestServer>>;

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchChromium();
  // The order step is behind a tabler's password (the tabler's name), and the register page only shows
  // its form when registration is open.
  const now = new Date().toISOString();
  await server.deps.db.insert(tablers).values({ name: TABLER, createdAt: now, updatedAt: now });
  await server.deps.db.update(settings).set({ value: 'true' }).where(eq(settings.key, 'allow_registration'));
  server.deps.settingsCache.invalidate();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

// The gate and the address search are rate-limited per address, and this file passes the gate often.
beforeEach(async () => {
  await server.deps.db.delete(rateLimits);
});

async function passGate(page: Page) {
  await page.getByLabel('Wachtwoord', { exact: true }).fill(TABLER.toLowerCase());
  await page.getByRole('button', { name: 'Doorgaan' }).click();
  await page.getByText(`Bestelling voor tabler ${TABLER}`).waitFor();
}

/** Each page (or page state) to check: where it is, what shows it is ready, and how to reach the state. */
const PAGES: { name: string; path: string; ready: string; reach?: (page: Page) => Promise<void> }[] = [
  { name: 'landing page', path: '/', ready: 'Kerstactie Ronde Tafel 144 Harlingen' },
  { name: 'FAQ', path: '/faq', ready: 'Veelgestelde Vragen' },
  { name: 'order information', path: '/bestelinformatie', ready: 'Bestelinformatie' },
  { name: 'privacy', path: '/privacy', ready: 'Privacy & Cookies' },
  { name: 'contact', path: '/contact', ready: 'Contact' },
  { name: 'order, password step', path: '/order', ready: 'Kerstpakket Bestellen' },
  {
    name: 'order, password step with an error',
    path: '/order',
    ready: 'Kerstpakket Bestellen',
    reach: async (page) => {
      await page.getByRole('button', { name: 'Doorgaan' }).click();
      await page.getByText('Voer het wachtwoord in.').waitFor();
    },
  },
  { name: 'order, order step', path: '/order', ready: 'Kerstpakket Bestellen', reach: passGate },
  {
    name: 'order, address suggestions open',
    path: '/order',
    ready: 'Kerstpakket Bestellen',
    reach: async (page) => {
      // A fixed answer in the browser: no test reaches PDOK.
      await page.route('**/api/geocode/search**', (route) =>
        route.fulfill({
          contentType: 'application/json',
          body: JSON.stringify([
            {
              display_name: 'Voorstraat 12, 8861 BK Harlingen',
              address: { road: 'Voorstraat', house_number: '12', city: 'Harlingen', postcode: '8861 BK', country: 'Nederland' },
            },
          ]),
        }),
      );
      await passGate(page);
      await page.getByRole('combobox', { name: 'Adres' }).pressSequentially('Voorstraat');
      await page.getByRole('option').first().waitFor();
    },
  },
  { name: 'login', path: '/login', ready: 'Login' },
  { name: 'register', path: '/register', ready: 'Register' },
];

for (const viewport of [NARROW, VIEWPORTS.desktop]) {
  describe(`at ${viewport.width} px wide`, () => {
    for (const entry of PAGES) {
      it(`${entry.name} (${entry.path}) has no serious or critical axe violation${viewport === NARROW ? ' and no horizontal overflow' : ''}`, async () => {
        const context = await browser.newContext({ viewport });
        const page = await context.newPage();
        try {
          // Once the network is quiet the prerendered pages are hydrated and show the visitor's
          // controls too: axe checks the page the visitor ends up with, not only the HTML as built.
          const network = watchNetwork(page);
          await page.goto(`${server.url}${entry.path}`);
          await page.getByRole('heading', { name: entry.ready, exact: true }).first().waitFor();
          await network.quiet();
          network.stop();
          await entry.reach?.(page);

          const where = `${entry.path} (${entry.name}) at ${viewport.width} px`;
          expect(await blockingAxeViolations(page, where), `axe violations on ${where}`).toBe('');

          if (viewport === NARROW) {
            const width = await page.evaluate(() => document.documentElement.scrollWidth);
            expect(width, `${entry.path} (${entry.name}) is ${width} px wide on a ${NARROW.width} px screen`).toBeLessThanOrEqual(NARROW.width);
          }
        } finally {
          await context.close();
        }
      });
    }
  });
}
