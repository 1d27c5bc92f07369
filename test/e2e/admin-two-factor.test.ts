import { decodeBase32IgnorePadding } from '@oslojs/encoding';
import { generateTOTP } from '@oslojs/otp';
import { eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settings } from '../../src/db/schema';
import { blockingAxeViolations } from './axe';
import { launchChromium, startTestServer, VIEWPORTS, screenshot } from './browser';

/**
 * docs/architecture.md §5 `require_2fa_for_admins`, as an admin sees it: signed in without two-factor they land on
 * their account page with a notice, /admin sends them back there, and once two-factor is on the admin
 * area opens.
 */

let browser: Browser;
let server: Awaited<ReturnType<typeof startTestServer>>;
let page: Page;

const pathOf = (p: Page) => new URL(p.url()).pathname;
const NOTICE = 'Two-factor authentication is required for admins';

beforeAll(async () => {
  server = await startTestServer();
  await server.deps.db.update(settings).set({ value: 'true' }).where(eq(settings.key, 'require_2fa_for_admins'));
  server.deps.settingsCache.invalidate();
  browser = await launchChromium();
  page = await (await browser.newContext({ viewport: VIEWPORTS.desktop })).newPage();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('an admin without two-factor while the club requires it', () => {
  it('lands on the account page with a notice after signing in, and /admin leads back there', async () => {
    await page.goto(`${server.url}/login`);
    await page.getByLabel('Username').fill('admin');
    await page.getByLabel('Password', { exact: true }).fill('e2e-admin-password');
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await page.waitForURL(`${server.url}/account`);
    await page.getByText(NOTICE).waitFor();
    await page.getByText('Turn it on below to use the admin area.').waitFor();
    expect(await blockingAxeViolations(page, '/account with the two-factor notice'), 'axe on /account').toBe('');
    await screenshot(page, 'admin-2fa-required-desktop.png', { fullPage: true });

    await page.goto(`${server.url}/admin`);
    await page.waitForURL(`${server.url}/account`);
    await page.getByText(NOTICE).waitFor();
  });

  it('opens the admin area once two-factor is on', async () => {
    await page.getByRole('button', { name: 'Enable 2FA' }).click();
    const secret = ((await page.getByTestId('totp-secret').textContent()) ?? '').trim();
    await page.getByLabel('Authentication code').fill(generateTOTP(decodeBase32IgnorePadding(secret), 30, 6));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText('2FA enabled successfully').waitFor();
    await page.getByRole('button', { name: 'I have saved them' }).click();
    await expect.poll(() => page.getByText(NOTICE).count()).toBe(0);

    await page.goto(`${server.url}/admin`);
    await page.getByRole('heading', { name: 'Admin', exact: true }).waitFor();
    expect(pathOf(page)).toBe('/admin');
  });
});
