import { eq } from 'drizzle-orm';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settings } from '../../src/db/schema';
import { launchChromium, startTestServer, VIEWPORTS, screenshot } from './browser';

let browser: Browser;
let server: Awaited<ReturnType<typeof startTestServer>>;

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('the SPA shell in Chromium', () => {
  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    it(`shows the landing page with the top bar and the footer on a ${name}`, async () => {
      const page = await browser.newPage({ viewport });
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      const response = await page.goto(`${server.url}/`);
      expect(response?.status()).toBe(200);
      expect(response?.headers()['content-security-policy']).toContain("default-src 'self'");
      await expect.poll(() => page.locator('h1').first().textContent()).toContain('Kerstactie');
      expect(await page.getAttribute('html', 'lang')).toBe('nl');
      const footer = page.locator('footer');
      for (const text of ['Contact', 'Volg ons', 'Praktisch', 'Alle prijzen zijn exclusief btw.', 'Built with', `© ${new Date().getFullYear()}`]) {
        expect(await footer.textContent()).toContain(text);
      }
      expect(await footer.locator('a[href="/faq"]').count()).toBe(1);
      expect(await footer.locator('a[href="/bestelinformatie"]').count()).toBe(1);
      expect(await footer.locator('a[href="/privacy"]').count()).toBe(1);
      expect(await footer.locator('a[href="/contact"]').count()).toBe(1);
      await screenshot(page, `shell-home-${name}.png`, { fullPage: true });
      expect(errors).toEqual([]);
      await page.close();
    });
  }

  it('shows Page Not Found for an unknown route and goes home from it', async () => {
    const page = await browser.newPage({ viewport: VIEWPORTS.phone });
    const response = await page.goto(`${server.url}/dit-bestaat-niet`);
    expect(response?.status()).toBe(200);
    await page.getByRole('heading', { name: 'Page Not Found' }).waitFor();
    await screenshot(page, 'shell-not-found-phone.png', { fullPage: true });
    await page.getByRole('link', { name: 'Go to Home' }).click();
    await page.waitForURL(`${server.url}/`);
    await expect.poll(() => page.locator('h1').first().textContent()).toContain('Kerstactie');
    await page.close();
  });

  it('sends visitors to /maintenance while maintenance mode is on, but leaves /login alone', async () => {
    await server.deps.db.update(settings).set({ value: 'true' }).where(eq(settings.key, 'maintenance_mode'));
    server.deps.settingsCache.invalidate();
    try {
      const page = await browser.newPage({ viewport: VIEWPORTS.desktop });
      await page.goto(`${server.url}/`);
      await page.waitForURL(`${server.url}/maintenance`);
      await page.getByRole('heading', { name: 'Onderhoud' }).waitFor();
      await screenshot(page, 'shell-maintenance-desktop.png', { fullPage: true });
      await page.goto(`${server.url}/login`);
      expect(new URL(page.url()).pathname).toBe('/login');
      await page.close();
    } finally {
      await server.deps.db.update(settings).set({ value: 'false' }).where(eq(settings.key, 'maintenance_mode'));
      server.deps.settingsCache.invalidate();
    }
  });
});
