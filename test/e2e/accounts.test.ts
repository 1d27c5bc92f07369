import { decodeBase32IgnorePadding } from '@oslojs/encoding';
import { generateHOTP } from '@oslojs/otp';
import { eq } from 'drizzle-orm';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settings } from '../../src/db/schema';
import { launchChromium, startTestServer, VIEWPORTS, openWatchedPage, screenshot } from './browser';

/**
 * docs/product.md §2 sign-in, registration, account page, guards and top bar; §4 session and two-factor states;
 * §5 validation; §8 messages — in Chromium against the real Node server.
 */

let browser: Browser;
let server: Awaited<ReturnType<typeof startTestServer>>;

const USERNAME = 'e2e_alice';
const PASSWORD = 'Str0ng!Passw0rd#2024xyz';
const NEW_PASSWORD = 'An0ther$ecret-Pass';
const TOTP_PERIOD_SECONDS = 30;

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function setSetting(key: string, value: string) {
  await server.deps.db.update(settings).set({ value }).where(eq(settings.key, key));
  server.deps.settingsCache.invalidate();
}

function currentTotpStep(): number {
  return Math.floor(Date.now() / 1000 / TOTP_PERIOD_SECONDS);
}

/**
 * A code the server takes that was not used yet: the current 30-s window's, or, when that window was used, the
 * next one's, as from an authenticator whose clock runs a little ahead (the server allows one step of drift
 * either way and refuses a step used before). No waiting for the next window.
 */
function freshTotpCode(secret: string, afterStep: number): { code: string; step: number } {
  const step = Math.max(currentTotpStep(), afterStep + 1);
  return { code: generateHOTP(decodeBase32IgnorePadding(secret), BigInt(step), 6), step };
}

function path(page: Page): string {
  return new URL(page.url()).pathname;
}

async function signIn(page: Page, username: string, password: string) {
  await page.goto(`${server.url}/login`);
  await page.getByRole('heading', { name: 'Login' }).waitFor();
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
}

async function logOutFromTopBar(page: Page) {
  await page.getByRole('banner').getByRole('button', { name: 'Logout' }).click();
  await page.waitForURL(`${server.url}/login`);
  await page.getByRole('banner').getByRole('link', { name: 'Login' }).waitFor();
}

function errorAlert(page: Page) {
  return page.locator('[role=alert][data-slot=alert]');
}

describe('a new user in Chromium', () => {
  let context: BrowserContext;
  let page: Page;
  let secret = '';
  let verifiedStep = 0;
  let recoveryCodes: string[] = [];
  let pageErrors: string[];

  beforeAll(async () => {
    await setSetting('allow_registration', 'true');
    ({ context, page, errors: pageErrors } = await openWatchedPage(browser, { viewport: VIEWPORTS.desktop }));
  });

  afterAll(async () => {
    await context?.close();
    await setSetting('allow_registration', 'false');
  });

  it('registers with a live strength indicator and is signed in', async () => {
    await page.goto(`${server.url}/`);
    await page.getByRole('banner').getByRole('link', { name: 'Register' }).click();
    await page.waitForURL(`${server.url}/register`);
    await page.getByRole('heading', { name: 'Register' }).waitFor();
    expect(await page.getByText('Minimum 6 characters').count()).toBe(1);

    await page.getByLabel('Username').fill(USERNAME);
    const password = page.getByLabel('Password', { exact: true });
    const strength = page.locator('[data-slot=password-strength]');
    await password.pressSequentially('abc');
    await expect.poll(() => strength.textContent()).toContain('Weak');
    await password.fill('Str0ng!Pass');
    await expect.poll(() => strength.textContent()).toContain('Moderate');
    await password.fill(PASSWORD);
    await expect.poll(() => strength.textContent()).toContain('Strong');

    // Client checks before anything is sent (docs/product.md §5), under the field they concern.
    const fieldError = (label: string) => page.locator('div', { has: page.getByLabel(label, { exact: true }) }).locator('> [data-slot=field-error]');
    await page.getByLabel('Username').fill('');
    await page.getByRole('button', { name: 'Register', exact: true }).click();
    await expect.poll(() => fieldError('Username').textContent()).toBe('Please enter a username.');
    expect(await page.getByLabel('Username').evaluate((input) => input === document.activeElement)).toBe(true);
    expect(await page.getByLabel('Username').getAttribute('aria-invalid')).toBe('true');
    await page.getByLabel('Username').fill(USERNAME);
    expect(await fieldError('Username').count()).toBe(0);
    const email = page.getByRole('textbox', { name: /^Email/ });
    await email.fill('erik@');
    await page.getByRole('button', { name: 'Register', exact: true }).click();
    await expect.poll(() => page.getByText('Please enter a valid email address.').count()).toBe(1);
    await email.fill('');
    await page.getByLabel('Confirm Password').fill(`${PASSWORD}-typo`);
    await page.getByRole('button', { name: 'Register', exact: true }).click();
    await expect.poll(() => errorAlert(page).textContent()).toContain('Passwords do not match.');

    await page.getByLabel('Confirm Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Register', exact: true }).click();
    await page.getByText('Your account has been created. Logging you in...').waitFor();
    await page.waitForURL(`${server.url}/`);
    const avatar = page.getByRole('banner').getByRole('link', { name: 'Account settings' });
    await avatar.waitFor();
    expect((await avatar.textContent())?.trim()).toBe('E');
    // A plain user sees no Admin link.
    expect(await page.getByRole('banner').getByRole('link', { name: 'Admin' }).count()).toBe(0);
  });

  it('refuses a taken username with the server text', async () => {
    const other = await browser.newContext({ viewport: VIEWPORTS.phone });
    const otherPage = await other.newPage();
    await otherPage.goto(`${server.url}/register`);
    await otherPage.getByLabel('Username').fill(USERNAME.toUpperCase());
    await otherPage.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await otherPage.getByLabel('Confirm Password').fill(PASSWORD);
    await otherPage.getByRole('button', { name: 'Register', exact: true }).click();
    await expect.poll(() => errorAlert(otherPage).textContent()).toContain('Username is already taken');
    await other.close();
  });

  it('signs out from the top bar and signs in again', async () => {
    await logOutFromTopBar(page);
    await signIn(page, USERNAME, 'wrong-password');
    await expect.poll(() => errorAlert(page).textContent()).toContain('Invalid username or password');
    await signIn(page, USERNAME, PASSWORD);
    await page.waitForURL(`${server.url}/`);
    await page.getByRole('banner').getByRole('link', { name: 'Account settings' }).waitFor();
    // A signed-in visitor opening /login goes to /.
    await page.goto(`${server.url}/login`);
    await page.waitForURL(`${server.url}/`);
  });

  it('shows the account details and sets up two-factor authentication', async () => {
    await page.getByRole('banner').getByRole('link', { name: 'Account settings' }).click();
    await page.waitForURL(`${server.url}/account`);
    await page.getByRole('heading', { name: 'My Account' }).waitFor();
    const main = page.locator('main');
    for (const text of ['User ID', 'Status', 'active', 'Created', 'Updated', 'Users']) {
      expect(await main.textContent()).toContain(text);
    }

    await page.getByRole('button', { name: 'Enable 2FA' }).click();
    const secretText = page.getByTestId('totp-secret');
    await secretText.waitFor();
    secret = (await secretText.textContent())?.trim() ?? '';
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    const qr = page.getByRole('img', { name: /QR code/ });
    await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await screenshot(page, 'accounts-account-2fa-setup-desktop.png', { fullPage: true });
    await page.setViewportSize(VIEWPORTS.phone);
    await screenshot(page, 'accounts-account-2fa-setup-phone.png', { fullPage: true });
    await screenshot(page.locator('[data-slot=card]', { hasText: 'Two-Factor Authentication' }), 'accounts-account-2fa-card-phone.png');
    await page.setViewportSize(VIEWPORTS.desktop);

    await page.getByLabel('Authentication code').fill('000000');
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect.poll(() => errorAlert(page).textContent()).toContain('Invalid 2FA code');

    const { code, step } = freshTotpCode(secret, 0);
    await page.getByLabel('Authentication code').fill(code);
    await page.getByRole('button', { name: 'Verify' }).click();
    verifiedStep = step;
    await page.getByText('2FA enabled successfully').waitFor();
    const codes = page.getByTestId('recovery-codes').locator('li');
    await expect.poll(() => codes.count()).toBe(10);
    recoveryCodes = (await codes.allTextContents()).map((text) => text.trim());
    expect(recoveryCodes[0]).toMatch(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/);
    for (const name of ['Copy', 'Download']) await page.getByRole('button', { name }).waitFor();
    await screenshot(page, 'accounts-account-recovery-codes-desktop.png');

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download' }).click();
    expect((await download).suggestedFilename()).toMatch(/\.txt$/);

    await page.getByRole('button', { name: 'I have saved them' }).click();
    await page.getByRole('button', { name: 'Disable 2FA' }).waitFor();
  });

  it('signs in with a recovery code in the code step', async () => {
    await logOutFromTopBar(page);
    // Empty fields are named under each field, not in the browser's English bubble; nothing is sent.
    let sent = 0;
    const count = (request: { url(): string }) => {
      if (new URL(request.url()).pathname !== '/login' && request.url().includes('login')) sent++;
    };
    await page.goto(`${server.url}/login`);
    await page.getByRole('heading', { name: 'Login' }).waitFor();
    page.on('request', count);
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await expect.poll(() => page.getByText('Please enter your username.').count()).toBe(1);
    expect(await page.getByText('Please enter your password.').count()).toBe(1);
    expect(await page.getByLabel('Username').evaluate((input) => input === document.activeElement)).toBe(true);
    await page.getByLabel('Username').fill(USERNAME);
    expect(await page.getByText('Please enter your username.').count()).toBe(0);
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    expect(await page.getByLabel('Password', { exact: true }).evaluate((input) => input === document.activeElement)).toBe(true);
    page.off('request', count);
    expect(sent).toBe(0);
    await signIn(page, USERNAME, PASSWORD);
    const codeField = page.getByLabel('Authentication code');
    await codeField.waitFor();
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect.poll(() => page.getByText('Please enter the code.').count()).toBe(1);
    await screenshot(page, 'accounts-login-code-desktop.png');
    // The 'two-factor' answer switches modes; it is not shown as an error.
    expect(await errorAlert(page).count()).toBe(0);
    expect(await codeField.getAttribute('maxlength')).toBe('6');
    await page.getByRole('button', { name: 'Use a recovery code' }).click();
    await page.getByLabel('Recovery code').fill(recoveryCodes[0]!);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL(`${server.url}/`);
    await page.getByRole('banner').getByRole('link', { name: 'Account settings' }).waitFor();
  });

  it('signs in with an authenticator code in the code step', async () => {
    await logOutFromTopBar(page);
    await signIn(page, USERNAME, PASSWORD);
    await page.getByLabel('Authentication code').waitFor();
    await page.getByLabel('Authentication code').fill('123456');
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect.poll(() => errorAlert(page).textContent()).toContain('Invalid 2FA code');

    const { code, step } = freshTotpCode(secret, verifiedStep);
    await page.getByLabel('Authentication code').fill(code);
    await page.getByRole('button', { name: 'Verify' }).click();
    verifiedStep = step;
    await page.waitForURL(`${server.url}/`);
    await page.getByRole('banner').getByRole('link', { name: 'Account settings' }).waitFor();
  }, 90_000);

  it('changes the password and the e-mail address on /account', async () => {
    await page.getByRole('banner').getByRole('link', { name: 'Account settings' }).click();
    await page.getByRole('heading', { name: 'My Account' }).waitFor();

    const passwordForm = page.getByRole('form', { name: 'Change Password' });
    await passwordForm.getByRole('button', { name: 'Change Password' }).click();
    await expect.poll(() => passwordForm.locator('[role=alert]').textContent()).toContain('Old password is required');
    await passwordForm.getByLabel('Old Password').fill('not-my-password');
    await passwordForm.getByLabel('New Password', { exact: true }).fill(NEW_PASSWORD);
    await passwordForm.getByLabel('Confirm New Password').fill(NEW_PASSWORD);
    await passwordForm.getByRole('button', { name: 'Change Password' }).click();
    await expect.poll(() => passwordForm.locator('[role=alert]').textContent()).toContain('Old password is incorrect');
    await passwordForm.getByLabel('Old Password').fill(PASSWORD);
    await passwordForm.getByLabel('New Password', { exact: true }).fill(NEW_PASSWORD);
    await passwordForm.getByLabel('Confirm New Password').fill(NEW_PASSWORD);
    await passwordForm.getByRole('button', { name: 'Change Password' }).click();
    await passwordForm.getByText('Password updated successfully').waitFor();

    const emailForm = page.getByRole('form', { name: 'Update Email' });
    await emailForm.getByLabel('Email').fill('not-an-address');
    await emailForm.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => emailForm.locator('[role=alert]').textContent()).toContain('Invalid email address');
    await emailForm.getByLabel('Email').fill('alice@example.org');
    await emailForm.getByRole('button', { name: 'Save' }).click();
    await emailForm.getByText('Email updated successfully').waitFor();
    // The cached user carries the new address: the details card shows it without a reload.
    await page.locator('main').getByText('alice@example.org', { exact: true }).first().waitFor();
  });

  it('disables two-factor with a recovery code and signs in with the new password only', async () => {
    await page.getByRole('button', { name: 'Disable 2FA' }).click();
    const dialog = page.getByRole('dialog', { name: 'Disable 2FA' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Use a recovery code' }).click();
    await dialog.getByLabel('Recovery code').fill(recoveryCodes[1]!);
    await dialog.getByRole('button', { name: 'Disable 2FA' }).click();
    await page.getByText('2FA disabled', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Enable 2FA' }).waitFor();

    await logOutFromTopBar(page);
    await signIn(page, USERNAME, NEW_PASSWORD);
    await page.waitForURL(`${server.url}/`);
    await page.getByRole('banner').getByRole('link', { name: 'Account settings' }).waitFor();
  });

  it('sends the plain user away from /admin and /protected to /', async () => {
    await page.goto(`${server.url}/admin`);
    await page.waitForURL(`${server.url}/`);
    await page.goto(`${server.url}/protected`);
    await page.waitForURL(`${server.url}/`);
  });

  it('logs out from the account page', async () => {
    await page.goto(`${server.url}/account`);
    await page.getByRole('heading', { name: 'My Account' }).waitFor();
    await page.locator('main').getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL(`${server.url}/login`);
    await page.goto(`${server.url}/account`);
    await page.waitForURL(`${server.url}/login`);
    expect(pageErrors).toEqual([]);
  });
});

describe('guards and screens for visitors and admins', () => {
  it('sends an anonymous visitor from /account, /admin and /protected to /login', async () => {
    const page = await browser.newPage({ viewport: VIEWPORTS.phone });
    for (const guarded of ['/account', '/admin', '/protected']) {
      await page.goto(`${server.url}${guarded}`);
      await page.waitForURL(`${server.url}/login`);
    }
    await page.close();
  });

  it('sends /register to /login while registration is off', async () => {
    const page = await browser.newPage({ viewport: VIEWPORTS.desktop });
    await page.goto(`${server.url}/register`);
    await page.waitForURL(`${server.url}/login`);
    await page.getByRole('heading', { name: 'Login' }).waitFor();
    await page.close();
  });

  it('shows the Admin link and the admin home to the first admin', async () => {
    // The narrowest phone the top bar has to fit (spec: works at 360 px).
    const page = await browser.newPage({ viewport: { width: 360, height: 740 } });
    await signIn(page, 'admin', 'e2e-admin-password');
    await page.waitForURL(`${server.url}/`);
    const banner = page.getByRole('banner');
    await banner.getByRole('link', { name: 'Admin' }).waitFor();
    const avatar = banner.getByRole('link', { name: 'Account settings' });
    expect((await avatar.textContent())?.trim()).toBe('A');
    const avatarBox = await avatar.boundingBox();
    expect(avatarBox!.x + avatarBox!.width).toBeLessThanOrEqual(360);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await screenshot(page, 'accounts-topbar-admin-360.png', { clip: { x: 0, y: 0, width: 360, height: 120 } });
    await banner.getByRole('link', { name: 'Admin' }).click();
    await page.waitForURL(`${server.url}/admin`);
    await page.getByRole('heading', { name: 'Admin' }).waitFor();
    await page.goto(`${server.url}/protected`);
    await page.getByRole('heading', { name: 'Welcome, admin!' }).waitFor();
    await page.close();
  });

  it('shows the avatar tooltip on hover', async () => {
    const page = await browser.newPage({ viewport: VIEWPORTS.desktop });
    await signIn(page, 'admin', 'e2e-admin-password');
    await page.waitForURL(`${server.url}/`);
    await page.getByRole('banner').getByRole('link', { name: 'Account settings' }).hover();
    await page.getByRole('tooltip', { name: 'Account settings' }).waitFor();
    await page.close();
  });

  it('tells a new user that an administrator must activate the account first', async () => {
    await setSetting('allow_registration', 'true');
    await setSetting('registration_requires_activation', 'true');
    try {
      const page = await browser.newPage({ viewport: VIEWPORTS.phone });
      await page.goto(`${server.url}/register`);
      await page.getByLabel('Username').fill('e2e_bob');
      await page.getByLabel('Email (optional)').fill('bob@example.org');
      await page.getByLabel('Password', { exact: true }).fill('short');
      await page.getByLabel('Confirm Password').fill('short');
      await page.getByRole('button', { name: 'Register', exact: true }).click();
      await expect.poll(() => errorAlert(page).textContent()).toContain('Password must be at least 6 characters.');
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByLabel('Confirm Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Register', exact: true }).click();
      await page.getByText('An administrator must activate it before you can log in.').waitFor();
      expect(path(page)).toBe('/register');
      await page.getByRole('link', { name: 'Go to Login' }).click();
      await page.waitForURL(`${server.url}/login`);
      await signIn(page, 'e2e_bob', PASSWORD);
      await expect.poll(() => errorAlert(page).textContent()).toContain('Account is not active');
      await page.close();
    } finally {
      await setSetting('registration_requires_activation', 'false');
      await setSetting('allow_registration', 'false');
    }
  });

  it('clears the signed-in user on logout even when the server cannot be reached', async () => {
    const context = await browser.newContext({ viewport: VIEWPORTS.desktop });
    const page = await context.newPage();
    await signIn(page, 'admin', 'e2e-admin-password');
    await page.waitForURL(`${server.url}/`);
    const banner = page.getByRole('banner');
    await banner.getByRole('link', { name: 'Account settings' }).waitFor();
    // The page's own requests end before the line is cut: one still under way would wait offline, and the header
    // with it (a CI run found no Logout button for 30 s).
    await page.waitForLoadState('networkidle');
    await banner.getByRole('button', { name: 'Logout' }).waitFor();
    await context.setOffline(true);
    await banner.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL(`${server.url}/login`);
    await banner.getByRole('link', { name: 'Login' }).waitFor();
    expect(await banner.getByRole('link', { name: 'Account settings' }).count()).toBe(0);
    // A sign-in that never reaches the server gets the exception text (docs/product.md §8).
    await page.getByLabel('Username').fill('admin');
    await page.getByLabel('Password', { exact: true }).fill('e2e-admin-password');
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await expect.poll(() => errorAlert(page).textContent()).toContain('Unexpected error during login');
    // The server never heard of it: back online, the session is still there.
    await context.setOffline(false);
    await page.goto(`${server.url}/`);
    await banner.getByRole('link', { name: 'Account settings' }).waitFor();
    await context.close();
  });

  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    it(`renders /login and /register on a ${name}`, async () => {
      await setSetting('allow_registration', 'true');
      try {
        const page = await browser.newPage({ viewport });
        const errors: string[] = [];
        page.on('pageerror', (error) => errors.push(error.message));
        await page.goto(`${server.url}/login`);
        await page.getByRole('heading', { name: 'Login' }).waitFor();
        await screenshot(page, `accounts-login-${name}.png`, { fullPage: true });
        await page.goto(`${server.url}/register`);
        await page.getByRole('heading', { name: 'Register' }).waitFor();
        await page.getByLabel('Password', { exact: true }).fill('Str0ng!Pass');
        await screenshot(page, `accounts-register-${name}.png`, { fullPage: true });
        // No horizontal scrolling on a phone.
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
        expect(errors).toEqual([]);
        await page.close();
      } finally {
        await setSetting('allow_registration', 'false');
      }
    });
  }
});
