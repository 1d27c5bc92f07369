import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders } from '../../src/db/schema';
import { pdfText } from '../support/pdf-text';
import { decodeQrPng } from '../support/qr-decode';
import { blockingAxeViolations } from './axe';
import {
  animationsDone,
  launchChromium,
  openWatchedPage,
  overflowingElements,
  postJson,
  SCREENSHOT_DIR,
  screenshot,
  signIn,
  startTestServer,
  VIEWPORTS,
} from './browser';

/**
 * Sellers' own links in Chromium against the real Node server (DESIGN §6 "The door", docs/decisions/070): Management's
 * 'Eigen bestellink' dialog (the link, its QR code, the flyer, a renewal behind its confirm) at 1280 and 375 px, then
 * the link opened by a customer: 'Je bestelt via <name>', an order that is that seller's, and the renewed-away link.
 */

const SELLER = 'Sanne Verkoper';
const LINK = /^http:\/\/127\.0\.0\.1:\d+\/bestellen\/\d+\.[A-Za-z0-9_-]{12}\.[A-Za-z0-9_-]{22}$/;

let browser: Browser;
let server: Awaited<ReturnType<typeof startTestServer>>;
let sellerId: number;
/** The link after the renewal, and the one it replaced. */
let link = '';
let oldLink = '';

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function openDialog(page: Page) {
  await page.goto(`${server.url}/admin/management?tab=tablers`);
  await page
    .locator(`tr[data-tabler="${SELLER}"]`)
    .getByRole('button', { name: `Eigen bestellink van ${SELLER}` })
    .filter({ visible: true })
    .click();
  const dialog = page.getByRole('dialog', { name: `Eigen bestellink van ${SELLER}` });
  await dialog.getByRole('img', { name: `QR-code van de bestellink van ${SELLER}` }).waitFor();
  await animationsDone(dialog);
  return dialog;
}

describe("a tabler's own link in Management", () => {
  it('shows the link and its QR code, makes the flyer, and renews the link behind a confirm (1280 px)', async () => {
    const { context, page, errors } = await openWatchedPage(browser, { viewport: VIEWPORTS.desktop, acceptDownloads: true });
    await signIn(page, server.url, 'admin', 'e2e-admin-password');
    sellerId = ((await postJson(page, '/tablers/create', { name: SELLER })).json.tabler as { id: number }).id;
    await postJson(page, '/tablers/create', { name: 'Otto Ander' });

    const dialog = await openDialog(page);
    const field = dialog.getByLabel('Link', { exact: true });
    oldLink = await field.inputValue();
    expect(oldLink).toMatch(LINK);
    const qr = dialog.getByRole('img', { name: `QR-code van de bestellink van ${SELLER}` });
    expect(await qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await screenshot(page, 'seller-link-dialog-desktop.png');
    expect(await blockingAxeViolations(page, 'Eigen bestellink dialog, 1280 px', dialog)).toBe('');

    const [png] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'QR-code downloaden' }).click()]);
    expect(png.suggestedFilename()).toBe('bestellink-sanne-verkoper.png');
    await png.saveAs(join(SCREENSHOT_DIR, 'seller-link-qr.png'));
    expect(decodeQrPng(readFileSync(join(SCREENSHOT_DIR, 'seller-link-qr.png')))).toBe(oldLink);

    const [flyer] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Flyer (PDF)' }).click()]);
    expect(flyer.suggestedFilename()).toBe('flyer-sanne-verkoper.pdf');
    await flyer.saveAs(join(SCREENSHOT_DIR, 'seller-flyer.pdf'));
    const text = await pdfText(readFileSync(join(SCREENSHOT_DIR, 'seller-flyer.pdf')));
    expect(text).toContain(`Bestel via ${SELLER}`);
    expect(text.replace(/\s+/g, '')).toContain(oldLink);

    await dialog.getByRole('button', { name: 'Nieuwe link maken' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Nieuwe link maken?' });
    await confirm.waitFor();
    expect(await confirm.textContent()).toContain(`De huidige link en QR-code van ${SELLER} werken daarna niet meer`);
    await animationsDone(confirm);
    await screenshot(page, 'seller-link-renew-confirm-desktop.png');
    await confirm.getByRole('button', { name: 'Nieuwe link maken' }).click();
    await page.getByText('Nieuwe link gemaakt. De oude link werkt niet meer.').waitFor();
    await expect.poll(() => field.inputValue()).not.toBe(oldLink);
    link = await field.inputValue();
    expect(link).toMatch(LINK);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('fits a phone (375 px)', async () => {
    const { context, page, errors } = await openWatchedPage(browser, { viewport: VIEWPORTS.phone });
    await signIn(page, server.url, 'admin', 'e2e-admin-password');
    const dialog = await openDialog(page);
    expect(await dialog.getByLabel('Link', { exact: true }).inputValue()).toBe(link);
    // On a phone the row's buttons sit under the name: one of each pair is shown.
    expect(await page.locator(`tr[data-tabler="${SELLER}"] button:visible`, { hasText: 'Eigen bestellink' }).count()).toBe(1);
    expect(await overflowingElements(page)).toEqual([]);
    const box = (await dialog.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(VIEWPORTS.phone.width);
    await screenshot(page, 'seller-link-dialog-phone.png');
    expect(await blockingAxeViolations(page, 'Eigen bestellink dialog, 375 px', dialog)).toBe('');
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('the seller page for a customer', () => {
  it("orders through the link without a password, and the order is the seller's (375 px)", async () => {
    const { context, page, errors } = await openWatchedPage(browser, { viewport: VIEWPORTS.phone });
    // The address search asks no provider here: no suggestions.
    await page.route('**/api/geocode/search**', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: '[]' }));
    await page.goto(link);
    await page.getByRole('heading', { name: `Je bestelt via ${SELLER}` }).waitFor();
    expect(await page.getByLabel('Wachtwoord').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Terug' }).count()).toBe(0);
    expect(await page.locator('meta[name=robots]').getAttribute('content')).toContain('noindex');
    expect(await overflowingElements(page)).toEqual([]);
    await screenshot(page, 'seller-page-phone.png', { fullPage: true });
    expect(await blockingAxeViolations(page, 'seller page, 375 px')).toBe('');

    await page.getByLabel('Naam', { exact: true }).fill('Klaas Klant');
    await page.getByLabel('Email', { exact: true }).fill('klaas@example.nl');
    await page.getByLabel('Telefoon', { exact: true }).fill('0517 412345');
    await page.getByLabel('Adres', { exact: true }).fill('Voorstraat 12');
    await page.getByLabel('Postcode', { exact: true }).fill('8861 bj');
    await page.getByLabel('Plaats', { exact: true }).fill('Harlingen');
    await page.getByLabel('Aantal kerstpakketten', { exact: true }).fill('3');
    await page.getByRole('button', { name: 'Bestelling Plaatsen' }).click();
    await page.getByRole('heading', { name: 'Bestelling Ontvangen!' }).waitFor();
    const reference = (await page.locator('[data-field=Bestelnummer] dd').textContent())!.trim();
    expect(await page.locator('[data-field="Besteld via"] dd').textContent()).toBe(SELLER);
    await page.getByText(`Met ‘Nog een bestelling’ bestel je nog eens via ${SELLER}.`).waitFor();
    // The pointer left where 'Bestelling Plaatsen' was: no hover colour on what is there now.
    await page.mouse.move(0, 0);
    await screenshot(page, 'seller-page-confirmation-phone.png', { fullPage: true });
    expect(await blockingAxeViolations(page, 'seller page confirmation, 375 px')).toBe('');

    const [row] = await server.deps.db.select().from(orders).where(eq(orders.reference, reference));
    expect([row!.tablerId, row!.name, row!.amount, row!.postalCode]).toEqual([sellerId, 'Klaas Klant', 3, '8861 BJ']);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('draws the form at 1280 px, and says so when a link no longer works', async () => {
    const { context, page, errors } = await openWatchedPage(browser, { viewport: VIEWPORTS.desktop });
    await page.goto(link);
    await page.getByRole('heading', { name: `Je bestelt via ${SELLER}` }).waitFor();
    await screenshot(page, 'seller-page-desktop.png', { fullPage: true });
    expect(await blockingAxeViolations(page, 'seller page, 1280 px')).toBe('');

    await page.goto(oldLink);
    await page.getByRole('heading', { name: 'Deze bestellink werkt niet (meer).' }).waitFor();
    expect(await page.getByLabel('Naam', { exact: true }).count()).toBe(0);
    await screenshot(page, 'seller-page-gone-desktop.png', { fullPage: true });
    expect(await blockingAxeViolations(page, 'seller page with a renewed link, 1280 px')).toBe('');
    expect(errors).toEqual([]);
    await context.close();
  });
});
