import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settings, versions } from '../../src/db/schema';
import { getSetting } from '../../src/features/settings/settings.service';
import { buildTestApk } from '../support/zip';
import { launchChromium, startTestServer, VIEWPORTS, openWatchedPage, screenshot } from './browser';

/**
 * docs/product.md §2 Settings Management and Version Management; §4 setting row states; §5 setting form and
 * version upload rules; §8 settings and versions messages — in Chromium against the real Node server.
 */

let browser: Browser;
let server: Awaited<ReturnType<typeof startTestServer>>;
let tempDir: string;

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchChromium();
  tempDir = mkdtempSync(join(tmpdir(), 'kerstactie-e2e-apk-'));
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (tempDir) rmSync(tempDir, { recursive: true, force: true });
});

async function signInAsAdmin(page: Page) {
  await page.goto(`${server.url}/login`);
  await page.getByRole('heading', { name: 'Login' }).waitFor();
  await page.getByLabel('Username').fill('admin');
  await page.getByLabel('Password', { exact: true }).fill('e2e-admin-password');
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await page.waitForURL(`${server.url}/`);
}

async function newAdminPage(viewport: { width: number; height: number }): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const { context, page, errors } = await openWatchedPage(browser, { viewport, acceptDownloads: true });
  await signInAsAdmin(page);
  return { context, page, errors };
}

async function storedSetting(key: string): Promise<string | undefined> {
  const [row] = await server.deps.db.select().from(settings).where(eq(settings.key, key));
  return row?.value;
}

/** A password setting's value as the server reads it (stored encrypted), or undefined when it is gone. */
async function storedPassword(key: string): Promise<string | undefined> {
  const stored = await storedSetting(key);
  if (stored === undefined) return undefined;
  expect(stored).toMatch(/^enc:v1:/);
  server.deps.settingsCache.invalidate();
  return String(await getSetting(server.deps, key));
}

function settingRow(page: Page, key: string): Locator {
  return page.locator(`[data-slot=setting-row][data-setting-key="${key}"]`);
}

function snackbar(page: Page): Locator {
  return page.locator('[data-slot=snackbar]');
}

/** The row's background colour as [r, g, b] (Chromium may report oklch; the canvas converts it). */
async function rowColour(row: Locator): Promise<[number, number, number]> {
  return row.evaluate((element) => {
    const canvas = document.createElement('canvas');
    canvas.width = canvas.height = 1;
    const context = canvas.getContext('2d')!;
    context.fillStyle = getComputedStyle(element).backgroundColor;
    context.fillRect(0, 0, 1, 1);
    const [r, g, b] = context.getImageData(0, 0, 1, 1).data;
    return [r!, g!, b!] as [number, number, number];
  });
}

/** A light tint of the given hue: bright, with the hue's channels on top. */
function isTint([r, g, b]: [number, number, number], hue: 'yellow' | 'green' | 'red'): boolean {
  const light = Math.min(r, g, b) > 200;
  if (hue === 'yellow') return light && r > b + 10 && g > b + 10;
  if (hue === 'green') return light && g > r && g > b;
  return light && r > g && r > b;
}

async function openSettings(page: Page) {
  await page.goto(`${server.url}/admin/settings`);
  await page.getByRole('heading', { name: 'Settings Management' }).waitFor();
  await settingRow(page, 'club_town').waitFor();
}

/** Picks an option of a labelled Radix select. */
async function choose(scope: Page | Locator, page: Page, label: string, option: string) {
  await scope.getByLabel(label, { exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

describe('Settings Management in Chromium', () => {
  let context: BrowserContext;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    ({ context, page, errors } = await newAdminPage(VIEWPORTS.desktop));
  });

  afterAll(async () => {
    await context?.close();
  });

  it('lists the settings in a card per group with visibility chips', async () => {
    await openSettings(page);
    const groups = await page.locator('[data-slot=settings-group]').evaluateAll((cards) => cards.map((card) => card.getAttribute('data-group')));
    expect(groups[0]).toBe('general');
    expect(groups).toEqual(expect.arrayContaining(['auth', 'club', 'invoice', 'geocoder']));
    const clubCard = page.locator('[data-slot=settings-group][data-group=club]');
    expect(await clubCard.getByRole('heading', { name: 'Club' }).count()).toBe(1);
    expect(await settingRow(page, 'club_town').textContent()).toContain('Town of the club.');
    expect(await settingRow(page, 'club_iban').locator('[data-visibility=admin]').count()).toBe(1);
    // Editors by type.
    expect(await settingRow(page, 'allow_registration').getByRole('switch', { name: 'Value of allow_registration' }).count()).toBe(1);
    const minLength = settingRow(page, 'password_min_length').getByLabel('Value of password_min_length');
    expect(await minLength.getAttribute('type')).toBe('number');
    expect(await minLength.getAttribute('min')).toBe('6');
    expect(await minLength.getAttribute('max')).toBe('128');
    expect(await settingRow(page, 'vat_split').locator('textarea').count()).toBe(1);
    // Built-in settings are not deletable: no delete button; none is unedited-coloured.
    expect(await settingRow(page, 'club_town').getByRole('button', { name: 'Delete club_town' }).count()).toBe(0);
    expect(await settingRow(page, 'club_town').getAttribute('data-state')).toBe('unedited');
  });

  it('edits a setting inline: the row turns yellow, then green after saving, and the value persists', async () => {
    await openSettings(page);
    const row = settingRow(page, 'club_town');
    const save = row.getByRole('button', { name: 'Save club_town' });
    expect(await save.isDisabled()).toBe(true);

    await row.getByLabel('Value of club_town').fill('Franeker');
    await expect.poll(() => row.getAttribute('data-state')).toBe('edited');
    expect(await row.locator('[data-slot=setting-status]').textContent()).toContain('Unsaved changes');
    // A light yellow (polled: the row fades between colours).
    await expect.poll(async () => isTint(await rowColour(row), 'yellow')).toBe(true);
    expect(await save.isDisabled()).toBe(false);

    await save.click();
    await expect.poll(() => row.getAttribute('data-state')).toBe('saved');
    expect(await row.locator('[data-slot=setting-status]').textContent()).toContain('Saved');
    await expect.poll(async () => isTint(await rowColour(row), 'green')).toBe(true);
    await expect.poll(() => snackbar(page).textContent()).toContain('Setting club_town saved');
    expect(await storedSetting('club_town')).toBe('Franeker');

    await page.reload();
    await settingRow(page, 'club_town').waitFor();
    expect(await settingRow(page, 'club_town').getByLabel('Value of club_town').inputValue()).toBe('Franeker');
    expect(await settingRow(page, 'club_town').getAttribute('data-state')).toBe('unedited');
  });

  it('marks an out-of-range integer red with the server text and keeps the stored value', async () => {
    await openSettings(page);
    const row = settingRow(page, 'password_min_length');
    const input = row.getByLabel('Value of password_min_length');

    // docs/product.md §5: an integer edit that does not parse falls back to 0.
    await input.fill('');
    await input.blur();
    expect(await input.inputValue()).toBe('0');
    await input.fill('6');
    await expect.poll(() => row.getAttribute('data-state')).toBe('unedited');

    await input.fill('3');
    await expect.poll(() => row.getAttribute('data-state')).toBe('edited');
    await row.getByRole('button', { name: 'Save password_min_length' }).click();
    await expect.poll(() => row.getAttribute('data-state')).toBe('error');
    expect(await row.locator('[data-slot=setting-status]').textContent()).toContain('Value must be at least 6.');
    expect(await input.getAttribute('aria-invalid')).toBe('true');
    await expect.poll(async () => isTint(await rowColour(row), 'red')).toBe(true);
    await expect.poll(() => snackbar(page).textContent()).toContain('Failed to save setting password_min_length');
    expect(await storedSetting('password_min_length')).toBe('6');

    // Editing again turns the row back to yellow.
    await input.fill('8');
    await expect.poll(() => row.getAttribute('data-state')).toBe('edited');
    await input.fill('6');
    await expect.poll(() => row.getAttribute('data-state')).toBe('unedited');
  });

  it('adds a setting through the dialog, edits it and deletes it', async () => {
    await openSettings(page);
    await page.getByRole('button', { name: 'Add Setting' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Setting' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await expect.poll(() => dialog.getByRole('alert').textContent()).toContain('Key, value and type are required.');
    // min/max only for integers; 'deletable' on create.
    expect(await dialog.getByLabel('Minimum').count()).toBe(0);
    expect(await dialog.getByLabel('Deletable').count()).toBe(1);

    await dialog.getByLabel('Key').fill('e2e_max_boxes');
    await choose(dialog, page, 'Type', 'integer');
    await dialog.getByLabel('Value', { exact: true }).fill('7');
    await dialog.getByLabel('Minimum').fill('1');
    await dialog.getByLabel('Maximum').fill('10');
    await dialog.getByLabel('Description').fill('Most boxes one order may hold (e2e).');
    await choose(dialog, page, 'Visibility', 'private');
    expect(await dialog.getByLabel('Group').inputValue()).toBe('general');
    await dialog.getByLabel('Group').fill('e2e');
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => snackbar(page).textContent()).toContain('Setting e2e_max_boxes added');

    const card = page.locator('[data-slot=settings-group][data-group=e2e]');
    const row = card.locator('[data-setting-key=e2e_max_boxes]');
    await row.waitFor();
    const value = row.getByLabel('Value of e2e_max_boxes');
    expect(await value.inputValue()).toBe('7');
    expect(await value.getAttribute('min')).toBe('1');
    expect(await value.getAttribute('max')).toBe('10');
    expect(await row.locator('[data-visibility=private]').count()).toBe(1);
    const [stored] = await server.deps.db.select().from(settings).where(eq(settings.key, 'e2e_max_boxes'));
    expect(stored).toMatchObject({ value: '7', type: 'integer', minValue: 1, maxValue: 10, groupName: 'e2e', visibility: 'private', deletable: true });

    // Edit: the key is read-only, 'deletable' is not offered; a server refusal shows its text.
    await row.getByRole('button', { name: 'Edit e2e_max_boxes' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Setting' });
    await edit.waitFor();
    expect(await edit.getByLabel('Key').getAttribute('readonly')).not.toBeNull();
    expect(await edit.getByLabel('Deletable').count()).toBe(0);
    await edit.getByLabel('Value', { exact: true }).fill('12');
    await edit.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => edit.getByRole('alert').textContent()).toContain('Value must be at most 10.');
    await edit.getByLabel('Value', { exact: true }).fill('9');
    await edit.getByLabel('Description').fill('Edited in the browser.');
    await edit.getByRole('button', { name: 'Save', exact: true }).click();
    await edit.waitFor({ state: 'detached' });
    await expect.poll(() => row.textContent()).toContain('Edited in the browser.');
    expect(await row.getByLabel('Value of e2e_max_boxes').inputValue()).toBe('9');

    // Delete with confirmation.
    await row.getByRole('button', { name: 'Delete e2e_max_boxes' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete setting?' });
    await confirm.waitFor();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await row.waitFor({ state: 'detached' });
    await expect.poll(() => snackbar(page).textContent()).toContain('Setting e2e_max_boxes deleted');
    expect(await storedSetting('e2e_max_boxes')).toBeUndefined();
    expect(await card.count()).toBe(0);
  });

  it('keeps a password setting behind its confirmation: a mismatch is red and nothing is sent', async () => {
    await openSettings(page);
    await page.getByRole('button', { name: 'Add Setting' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Setting' });
    await dialog.getByLabel('Key').fill('e2e_smtp_password');
    await choose(dialog, page, 'Type', 'password');
    await dialog.getByLabel('Value', { exact: true }).fill('first-secret');
    await dialog.getByLabel('Confirm Value').fill('first-secreT');
    expect(await dialog.getByText('Passwords do not match').count()).toBeGreaterThan(0);
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await expect.poll(() => dialog.getByRole('alert').textContent()).toContain('Passwords do not match');
    await dialog.getByLabel('Confirm Value').fill('first-secret');
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await storedPassword('e2e_smtp_password')).toBe('first-secret');

    const row = settingRow(page, 'e2e_smtp_password');
    await row.waitFor();
    const updates: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('settings.update')) updates.push(request.url());
    });
    await row.getByLabel('New value of e2e_smtp_password', { exact: true }).fill('second-secret');
    await expect.poll(() => row.getAttribute('data-state')).toBe('edited');
    await row.getByLabel('Confirm new value of e2e_smtp_password').fill('second-secreT');
    await row.getByRole('button', { name: 'Save e2e_smtp_password' }).click();
    await expect.poll(() => row.getAttribute('data-state')).toBe('error');
    expect(await row.locator('[data-slot=setting-status]').textContent()).toContain('Passwords do not match');
    expect(updates).toEqual([]);
    expect(await storedPassword('e2e_smtp_password')).toBe('first-secret');

    await row.getByLabel('Confirm new value of e2e_smtp_password').fill('second-secret');
    await expect.poll(() => row.getAttribute('data-state')).toBe('edited');
    await row.getByLabel('Confirm new value of e2e_smtp_password').press('Enter');
    await expect.poll(() => row.getAttribute('data-state')).toBe('saved');
    expect(updates.length).toBe(1);
    expect(await storedPassword('e2e_smtp_password')).toBe('second-secret');
    // The value is never sent back to the browser; the fields are empty again.
    expect(await row.getByLabel('New value of e2e_smtp_password', { exact: true }).inputValue()).toBe('');

    await row.getByRole('button', { name: 'Delete e2e_smtp_password' }).click();
    await page.getByRole('alertdialog', { name: 'Delete setting?' }).getByRole('button', { name: 'Delete' }).click();
    await row.waitFor({ state: 'detached' });
    expect(await storedPassword('e2e_smtp_password')).toBeUndefined();
  });

  it('toggles a boolean setting with its switch and saves it', async () => {
    await openSettings(page);
    const row = settingRow(page, 'allow_registration');
    const toggle = row.getByRole('switch', { name: 'Value of allow_registration' });
    expect(await toggle.getAttribute('aria-checked')).toBe('false');
    await toggle.click();
    await expect.poll(() => row.getAttribute('data-state')).toBe('edited');
    await row.getByRole('button', { name: 'Save allow_registration' }).click();
    await expect.poll(() => row.getAttribute('data-state')).toBe('saved');
    expect(await storedSetting('allow_registration')).toBe('true');
    await toggle.click();
    await row.getByRole('button', { name: 'Save allow_registration' }).click();
    await expect.poll(() => storedSetting('allow_registration')).toBe('false');
    expect(errors).toEqual([]);
  });

  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    it(`renders /admin/settings with a yellow and a green row on a ${name}`, async () => {
      const { context: shotContext, page: shot, errors: shotErrors } = await newAdminPage(viewport);
      await openSettings(shot);
      const green = settingRow(shot, 'club_town');
      const current = await green.getByLabel('Value of club_town').inputValue();
      await green.getByLabel('Value of club_town').fill(current === 'Harlingen' ? 'Franeker' : 'Harlingen');
      await green.getByRole('button', { name: 'Save club_town' }).click();
      await expect.poll(() => green.getAttribute('data-state')).toBe('saved');
      const yellow = settingRow(shot, 'club_name');
      await yellow.getByLabel('Value of club_name').fill('Ronde Tafel 144 Harlingen (concept)');
      await expect.poll(() => yellow.getAttribute('data-state')).toBe('edited');
      await snackbar(shot).getByRole('button', { name: 'Close' }).click();
      await shot.mouse.move(0, 0);
      // From the top, so the sticky top bar is where it belongs in the full-page picture.
      await shot.evaluate(() => window.scrollTo(0, 0));
      await screenshot(shot, `admin-settings-${name}.png`, { fullPage: true });
      const club = await shot.locator('[data-slot=settings-group][data-group=club]').boundingBox();
      await screenshot(shot, `admin-settings-club-${name}.png`, { fullPage: true, clip: club! });
      expect(await shot.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

      // The add dialog of an integer setting (min/max shown, 'deletable' offered).
      await shot.getByRole('button', { name: 'Add Setting' }).click();
      const dialog = shot.getByRole('dialog', { name: 'Add Setting' });
      await dialog.getByLabel('Key').fill('club_phone_digits');
      await choose(dialog, shot, 'Type', 'integer');
      await dialog.getByLabel('Value', { exact: true }).fill('10');
      await dialog.getByLabel('Minimum').fill('8');
      await screenshot(shot, `admin-settings-add-dialog-${name}.png`);
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });
      expect(shotErrors).toEqual([]);
      await shotContext.close();
    });
  }
});

describe('Version Management in Chromium', () => {
  let context: BrowserContext;
  let page: Page;
  let errors: string[];
  const firstApk = buildTestApk(512 * 1024);
  const secondApk = buildTestApk(8 * 1024);
  let firstPath: string;
  let secondPath: string;

  beforeAll(async () => {
    firstPath = join(tempDir, 'kerstactie-1.0.0.apk');
    secondPath = join(tempDir, 'kerstactie-1.1.0.apk');
    writeFileSync(firstPath, firstApk);
    writeFileSync(secondPath, secondApk);
    ({ context, page, errors } = await newAdminPage(VIEWPORTS.desktop));
  });

  afterAll(async () => {
    await context?.close();
  });

  async function openVersions(target: Page = page) {
    await target.goto(`${server.url}/admin/versions`);
    await target.getByRole('heading', { name: 'Version Management' }).waitFor();
    await target.locator('[data-slot=total-versions-card]').waitFor();
  }

  async function openUploadDialog(target: Page = page): Promise<Locator> {
    await target.getByRole('main').getByRole('button', { name: 'Upload Version' }).first().click();
    const dialog = target.getByRole('dialog', { name: 'Upload Version' });
    await dialog.waitFor();
    return dialog;
  }

  it('shows the empty cards and checks the upload form before sending anything', async () => {
    await openVersions();
    expect(await page.getByTestId('total-versions').textContent()).toBe('0');
    expect(await page.locator('[data-slot=latest-version-card]').textContent()).toContain('No version uploaded yet.');
    expect(await page.getByText('No versions uploaded yet.').count()).toBe(1);

    const dialog = await openUploadDialog();
    const input = dialog.getByLabel('APK File');
    expect(await input.getAttribute('accept')).toBe('.apk,application/vnd.android.package-archive');
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    await expect.poll(() => dialog.getByRole('alert').textContent()).toContain('Please fill all fields and select an APK file');

    await dialog.getByLabel('Version Name').fill('0.9.0');
    await dialog.getByLabel('Version Code').fill('90');
    await input.setInputFiles({ name: 'release-notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not an apk') });
    await expect.poll(() => dialog.getByRole('alert').textContent()).toContain('Please select a valid APK file');
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    await expect.poll(() => dialog.getByRole('alert').textContent()).toContain('Please select a valid APK file');

    // An .apk name on a file that is not a ZIP: the server's message.
    await input.setInputFiles({ name: 'fake.apk', mimeType: 'application/vnd.android.package-archive', buffer: Buffer.from('plain text, no zip') });
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    await expect.poll(() => dialog.getByRole('alert').textContent()).toContain('Please select a valid APK file');
    expect(await server.deps.db.select().from(versions)).toEqual([]);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('uploads a real APK with a progress bar and lists it as Latest', async () => {
    await openVersions();
    const dialog = await openUploadDialog();
    await dialog.getByLabel('Version Name').fill('1.0.0');
    await dialog.getByLabel('Version Code').fill('100');
    await dialog.getByLabel('APK File').setInputFiles(firstPath);
    expect(await dialog.textContent()).toContain('kerstactie-1.0.0.apk');

    // Slow the upload down so the progress can be seen (and photographed).
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: 128 * 1024 });
    try {
      await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
      const progress = dialog.getByRole('progressbar', { name: 'Upload progress' });
      await progress.waitFor();
      await expect.poll(async () => Number(await progress.getAttribute('aria-valuenow')), { timeout: 15_000 }).toBeGreaterThan(0);
      const seen = Number(await progress.getAttribute('aria-valuenow'));
      expect(seen).toBeLessThanOrEqual(100);
      expect(await dialog.locator('[data-slot=upload-progress]').textContent()).toMatch(/\d+%/);
      await screenshot(page, 'admin-versions-upload-progress-desktop.png');
      await expect.poll(() => snackbar(page).textContent(), { timeout: 30_000 }).toContain('Version uploaded successfully');
    } finally {
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
      await cdp.detach();
    }
    await dialog.waitFor({ state: 'detached' });

    const rows = page.getByRole('table', { name: 'Version history' }).locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain('1.0.0');
    expect(await rows.first().textContent()).toContain('Latest');
    expect(await page.getByTestId('total-versions').textContent()).toBe('1');
    expect(await page.getByTestId('latest-version-name').textContent()).toBe('1.0.0');
    const [row] = await server.deps.db.select().from(versions);
    expect(row).toMatchObject({ versionName: '1.0.0', versionCode: 100, size: firstApk.length });
  });

  it('refuses a taken version code with the server message', async () => {
    await openVersions();
    const dialog = await openUploadDialog();
    await dialog.getByLabel('Version Name').fill('1.0.0-again');
    await dialog.getByLabel('Version Code').fill('100');
    await dialog.getByLabel('APK File').setInputFiles(secondPath);
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    await expect.poll(() => dialog.getByRole('alert').textContent()).toContain('Version code 100 already exists');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  it('uploads a newer version: it becomes Latest and the older one Archive', async () => {
    await openVersions();
    const dialog = await openUploadDialog();
    await dialog.getByLabel('Version Name').fill('1.1.0');
    await dialog.getByLabel('Version Code').fill('110');
    await dialog.getByLabel('APK File').setInputFiles(secondPath);
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    await expect.poll(() => snackbar(page).textContent()).toContain('Version uploaded successfully');
    const rows = page.getByRole('table', { name: 'Version history' }).locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(2);
    expect(await rows.nth(0).textContent()).toContain('1.1.0');
    expect(await rows.nth(0).getByText('Latest', { exact: true }).count()).toBe(1);
    expect(await rows.nth(1).textContent()).toContain('1.0.0');
    expect(await rows.nth(1).getByText('Archive', { exact: true }).count()).toBe(1);
    expect(await page.getByTestId('total-versions').textContent()).toBe('2');
    expect(await page.getByTestId('latest-version-name').textContent()).toBe('1.1.0');
  });

  it('downloads a version and the latest version under the server file names', async () => {
    await openVersions();
    const table = page.getByRole('table', { name: 'Version history' });
    await table.waitFor();

    const [download] = await Promise.all([page.waitForEvent('download'), table.getByRole('button', { name: 'Download 1.0.0' }).click()]);
    expect(download.suggestedFilename()).toBe('app_v100_1.0.0.apk');
    expect(new Uint8Array(readFileSync((await download.path())!))).toEqual(firstApk);

    const [latest] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('[data-slot=latest-version-card]').getByRole('button', { name: 'Download', exact: true }).click(),
    ]);
    expect(latest.suggestedFilename()).toBe('app_latest.apk');
    expect(new Uint8Array(readFileSync((await latest.path())!))).toEqual(secondApk);
    expect(await page.locator('[data-slot=latest-version-card] a[href="/api/update/latest"]').count()).toBe(1);
  });

  it('reports a failed download', async () => {
    await openVersions();
    await page.route('**/api/update/download?*', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{"success":false,"error":"Server error"}' }),
    );
    await page.route('**/api/update/latest', (route) =>
      route.fulfill({ status: 404, contentType: 'application/json', body: '{"success":false,"error":"No version"}' }),
    );
    try {
      await page.getByRole('table', { name: 'Version history' }).getByRole('button', { name: 'Download 1.1.0' }).click();
      await expect.poll(() => snackbar(page).textContent()).toContain('Download failed');
      await page.locator('[data-slot=latest-version-card]').getByRole('button', { name: 'Download', exact: true }).click();
      await expect.poll(() => snackbar(page).textContent()).toContain('Latest version download failed');
    } finally {
      await page.unrouteAll();
    }
  });

  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    it(`renders /admin/versions and the upload dialog on a ${name}`, async () => {
      const { context: shotContext, page: shot, errors: shotErrors } = await newAdminPage(viewport);
      await openVersions(shot);
      await shot.getByRole('table', { name: 'Version history' }).waitFor();
      await screenshot(shot, `admin-versions-${name}.png`, { fullPage: true });
      expect(await shot.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

      const dialog = await openUploadDialog(shot);
      await dialog.getByLabel('Version Name').fill(`2.0.0-${name}`);
      await dialog.getByLabel('Version Code').fill(name === 'phone' ? '200' : '201');
      await dialog.getByLabel('APK File').setInputFiles(firstPath);
      const cdp = await shotContext.newCDPSession(shot);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: 160 * 1024 });
      try {
        await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
        const progress = dialog.getByRole('progressbar', { name: 'Upload progress' });
        await expect.poll(async () => Number((await progress.getAttribute('aria-valuenow')) ?? 0), { timeout: 15_000 }).toBeGreaterThan(15);
        await screenshot(shot, `admin-versions-upload-${name}.png`);
        await expect.poll(() => snackbar(shot).textContent(), { timeout: 30_000 }).toContain('Version uploaded successfully');
      } finally {
        await cdp.detach();
      }
      expect(shotErrors).toEqual([]);
      await shotContext.close();
    });
  }

  it('deletes a version after confirmation', async () => {
    await openVersions();
    const table = page.getByRole('table', { name: 'Version history' });
    const before = await table.locator('tbody tr').count();
    await table.getByRole('button', { name: 'Delete 1.0.0' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete version?' });
    await confirm.waitFor();
    expect(await confirm.textContent()).toContain('code 100');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => table.locator('tbody tr').count()).toBe(before - 1);
    await expect.poll(() => snackbar(page).textContent()).toContain('Version 1.0.0 deleted');
    expect((await server.deps.db.select().from(versions).where(eq(versions.versionCode, 100))).length).toBe(0);
    expect(errors).toEqual([]);
  });
});
