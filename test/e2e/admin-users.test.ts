import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groupPermissions, groups, mailOutbox, permissions, userGroups, users } from '../../src/db/schema';
import {
  animationsDone,
  createPlainUser,
  launchChromium,
  openWatchedPage,
  postJson,
  signIn as signInAs,
  startTestServer,
  VIEWPORTS,
  screenshot,
} from './browser';

/**
 * docs/product.md §2 admin home, toolbar and the User, Group and Permission Management screens; §4 user status
 * and group permissions; §5 admin rules; §8 admin messages; docs/architecture.md §1 route-level code splitting —
 * in Chromium against the real Node server.
 */

let browser: Browser;
let server: Awaited<ReturnType<typeof startTestServer>>;

const ADMIN_PASSWORD = 'e2e-admin-password';
const BOB = 'e2e_bob';
const BOB_PASSWORD = 'Bob-first-pass-1';
const BOB_NEW_PASSWORD = 'Bob-reset-pass-2';
const CAROL = 'e2e_carol';
const HELPERS_GROUP = 'Helpers';
// The first club's admin also runs the deployment (platform.access): the Clubs screen comes last.
const TILES = ['Users', 'Groups', 'Permissions', 'Settings', 'Versions', 'Management', 'Audit Log', 'Clubs'];

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchChromium();
  await createUser(BOB, BOB_PASSWORD);
  await createUser(CAROL, 'Carol-pass-123');
  await server.deps.db.insert(groups).values({ name: HELPERS_GROUP, description: 'Packs the bags' });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

function createUser(username: string, password: string) {
  return createPlainUser(server, username, password);
}

async function findUser(username: string) {
  const [user] = await server.deps.db.select().from(users).where(eq(users.username, username));
  return user;
}

function signIn(page: Page, username: string, password: string) {
  return signInAs(page, server.url, username, password);
}

function snackbar(page: Page) {
  return page.locator('[data-slot=snackbar]');
}

async function expectSnackbar(page: Page, text: string) {
  await expect.poll(() => snackbar(page).textContent()).toContain(text);
}

function userRow(page: Page, username: string) {
  return page.locator(`tr[data-user="${username}"]`);
}

function groupRow(page: Page, name: string) {
  return page.locator(`tr[data-group="${name}"]`);
}

describe('the admin screens in Chromium', () => {
  let context: BrowserContext;
  let page: Page;
  let pageErrors: string[];

  beforeAll(async () => {
    ({ context, page, errors: pageErrors } = await openWatchedPage(browser, { viewport: VIEWPORTS.desktop }));
    await signIn(page, 'admin', ADMIN_PASSWORD);
  });

  afterAll(async () => {
    await context?.close();
  });

  it('shows the six tiles of the specification and the audit log on /admin, without the toolbar', async () => {
    await page.goto(`${server.url}/admin`);
    await page.getByRole('heading', { name: 'Admin', exact: true }).waitFor();
    const tiles = page.locator('[data-slot=admin-tile]');
    await expect.poll(() => tiles.count()).toBe(TILES.length);
    const titles = await tiles.evaluateAll((links) => links.map((link) => link.querySelector('span.font-semibold')?.textContent));
    expect(titles).toEqual(TILES);
    expect(await page.getByRole('navigation', { name: 'Admin', exact: true }).count()).toBe(0);
    await screenshot(page, 'admin-home-desktop.png', { fullPage: true });
    await page.setViewportSize(VIEWPORTS.phone);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await screenshot(page, 'admin-home-phone.png', { fullPage: true });
    await page.setViewportSize(VIEWPORTS.desktop);
  });

  it('opens a sub-page from its tile and shows the toolbar there, the page highlighted', async () => {
    await page.getByRole('link', { name: /^Users/ }).click();
    await page.waitForURL(`${server.url}/admin/users`);
    await page.getByRole('heading', { name: 'User Management' }).waitFor();
    const toolbar = page.getByRole('navigation', { name: 'Admin', exact: true });
    await toolbar.waitFor();
    for (const name of ['Admin Home', ...TILES]) await toolbar.getByRole('link', { name, exact: true }).waitFor();
    expect(await toolbar.getByRole('link', { name: 'Users', exact: true }).getAttribute('aria-current')).toBe('page');
    expect(await toolbar.getByRole('link', { name: 'Groups', exact: true }).getAttribute('aria-current')).toBeNull();
    expect(await toolbar.getByRole('link', { name: 'Management', exact: true }).getAttribute('href')).toBe('/admin/management');

    // On a phone the toolbar scrolls sideways instead of widening the page.
    await page.setViewportSize(VIEWPORTS.phone);
    const strip = toolbar.locator('ul');
    expect(await strip.evaluate((list) => list.scrollWidth > list.clientWidth)).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.setViewportSize(VIEWPORTS.desktop);

    await toolbar.getByRole('link', { name: 'Groups', exact: true }).click();
    await page.waitForURL(`${server.url}/admin/groups`);
    await page.getByRole('heading', { name: 'Group Management' }).waitFor();
    expect(await toolbar.getByRole('link', { name: 'Groups', exact: true }).getAttribute('aria-current')).toBe('page');
    await toolbar.getByRole('link', { name: 'Admin Home', exact: true }).click();
    await page.waitForURL(`${server.url}/admin`);
    await page.getByRole('heading', { name: 'Admin', exact: true }).waitFor();
  });

  it('shows a spinner, then the load failure with a retry, when the users cannot be fetched', async () => {
    // The list call fails every time (3 retries with back-off first, docs/product.md §4), until the retry.
    const failing = (url: URL) => url.pathname.startsWith('/trpc/') && url.pathname.includes('users.list');
    await page.route(failing, (route) => route.abort());
    try {
      await page.goto(`${server.url}/admin/users`);
      await page.getByRole('status', { name: 'Loading users' }).waitFor();
      const alert = page.getByRole('alert').filter({ hasText: 'Failed to fetch users' });
      await alert.waitFor({ timeout: 15_000 });
      await screenshot(page, 'admin-users-load-error-desktop.png');
      await page.unroute(failing);
      await alert.getByRole('button', { name: 'Retry' }).click();
      await userRow(page, BOB).waitFor();
    } finally {
      await page.unroute(failing);
    }
  });

  it('keeps the toolbar on an admin path that does not exist, and scrolls it to the current tile on a phone', async () => {
    await page.goto(`${server.url}/admin/no-such-page`);
    await page.getByRole('navigation', { name: 'Admin', exact: true }).waitFor();
    await page.getByText('Page Not Found').waitFor();
    await screenshot(page, 'admin-missing-page-desktop.png');
    // On a phone the toolbar scrolls its active (last) button into view.
    await page.setViewportSize(VIEWPORTS.phone);
    await page.goto(`${server.url}/admin/management`);
    const active = page.getByRole('navigation', { name: 'Admin', exact: true }).getByRole('link', { name: 'Management' });
    await active.waitFor();
    await expect.poll(async () => (await active.getAttribute('aria-current')) === 'page').toBe(true);
    const box = await active.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(VIEWPORTS.phone.width);
    await screenshot(page, 'admin-toolbar-scrolled-phone.png', { clip: { x: 0, y: 0, width: 375, height: 140 } });
    await page.setViewportSize(VIEWPORTS.desktop);
  });

  it('lists the users with their columns', async () => {
    await page.goto(`${server.url}/admin/users`);
    await userRow(page, BOB).waitFor();
    const headers = await page.getByRole('table', { name: 'Users' }).locator('th').allTextContents();
    expect(headers).toEqual(['ID', 'Username', 'Email', 'Groups', 'Status', 'Created', 'Updated', 'Actions']);
    // The first admin is not deletable: read-only groups, no delete button; your own status is read-only.
    const adminRow = userRow(page, 'admin');
    expect(await adminRow.getByRole('button', { name: /Edit groups of/ }).count()).toBe(0);
    expect(await adminRow.getByRole('button', { name: /^Delete/ }).count()).toBe(0);
    expect(await adminRow.getByRole('button', { name: /Status of/ }).count()).toBe(0);
    expect(await adminRow.textContent()).toContain('Administrators');
    await userRow(page, BOB)
      .getByRole('button', { name: `Delete ${BOB}` })
      .waitFor();
  });

  it('adds a user with the Add user dialog, who chooses a password through the mailed link', async () => {
    const TREA = 'e2e_trea';
    await page.goto(`${server.url}/admin/users`);
    await userRow(page, BOB).waitFor();
    await page.getByRole('button', { name: 'Add user' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'Add user' }).waitFor();
    await dialog.getByText('The new user gets an e-mail with a link to choose a password, valid for 7 days.').waitFor();
    const add = dialog.getByRole('button', { name: 'Add', exact: true });
    expect(await add.isDisabled()).toBe(true);
    // The default group is ticked to start with.
    expect(await dialog.getByRole('checkbox', { name: 'Users' }).getAttribute('aria-checked')).toBe('true');
    await dialog.getByLabel('Username').fill(TREA);
    await dialog.getByLabel('Email').fill('trea@example.nl');
    await dialog.getByRole('checkbox', { name: HELPERS_GROUP }).click();
    await dialog.getByRole('checkbox', { name: 'Users' }).click();
    await animationsDone(dialog);
    await screenshot(page, 'admin-add-user-desktop.png');
    await add.click();
    await expectSnackbar(page, `${TREA} added; the link to choose a password is on its way to trea@example.nl`);
    await dialog.waitFor({ state: 'detached' });
    const row = userRow(page, TREA);
    await row.waitFor();
    expect(await row.textContent()).toContain(HELPERS_GROUP);
    expect(await row.textContent()).toContain('trea@example.nl');
    expect((await findUser(TREA))!.status).toBe('active');

    // The newcomer opens the mailed link on a phone, chooses a password and signs in.
    const [mail] = await server.deps.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, 'trea@example.nl'));
    const link = /(http:\/\/127\.0\.0\.1:\d+\/reset-password\?token=[A-Za-z0-9_-]{43})/.exec(mail!.textBody)![1]!;
    const phone = await browser.newContext({ viewport: VIEWPORTS.phone });
    try {
      const trea = await phone.newPage();
      await trea.goto(link);
      await trea.getByLabel('New Password', { exact: true }).fill('Penning-Meester-28');
      await trea.getByLabel('Confirm New Password').fill('Penning-Meester-28');
      await trea.getByRole('button', { name: 'Set new password' }).click();
      await trea.getByText('Your password has been changed. Sign in with your new password.').waitFor();
      await signInAs(trea, server.url, TREA, 'Penning-Meester-28');
    } finally {
      await phone.close();
    }

    // In Dutch at 375 px: the same dialog, and a taken name is refused inside it.
    expect((await postJson(page, '/api/account/locale', { locale: 'nl' })).json).toEqual({ success: true });
    await page.setViewportSize(VIEWPORTS.phone);
    try {
      await page.goto(`${server.url}/admin/users`);
      await page.getByRole('heading', { name: 'Gebruikersbeheer' }).waitFor();
      await page.getByRole('button', { name: 'Gebruiker toevoegen' }).click();
      await dialog.getByRole('heading', { name: 'Gebruiker toevoegen' }).waitFor();
      await dialog.getByText('De nieuwe gebruiker krijgt een e-mail met een link om een wachtwoord te kiezen, 7 dagen geldig.').waitFor();
      await dialog.getByLabel('Gebruikersnaam').fill(TREA.toUpperCase());
      await dialog.getByLabel('E-mailadres').fill('andere@example.nl');
      await dialog.getByRole('button', { name: 'Toevoegen', exact: true }).click();
      await dialog.getByText('Deze gebruikersnaam is al in gebruik').waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await animationsDone(dialog);
      await screenshot(page, 'admin-add-user-taken-nl-phone.png');
      await dialog.getByRole('button', { name: 'Annuleren' }).click();
      await dialog.waitFor({ state: 'detached' });
    } finally {
      await page.setViewportSize(VIEWPORTS.desktop);
      expect((await postJson(page, '/api/account/locale', { locale: 'en' })).json).toEqual({ success: true });
      // The tests after this one go on from this page, in English.
      await page.goto(`${server.url}/admin/users`);
      await page.getByRole('heading', { name: 'User Management' }).waitFor();
    }
    expect(pageErrors).toEqual([]);
  });

  it("toggles a user's status after a confirmation", async () => {
    const row = userRow(page, BOB);
    // Cancel leaves the status alone.
    await row.getByRole('button', { name: `Status of ${BOB}: active` }).click();
    const confirm = page.getByRole('alertdialog');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'hidden' });
    expect((await findUser(BOB))!.status).toBe('active');

    await row.getByRole('button', { name: `Status of ${BOB}: active` }).click();
    await confirm.getByRole('heading', { name: 'Set user inactive?' }).waitFor();
    await confirm.getByRole('button', { name: 'Set inactive' }).click();
    await expectSnackbar(page, 'User set to inactive');
    await row.getByRole('button', { name: `Status of ${BOB}: inactive` }).waitFor();
    expect((await findUser(BOB))!.status).toBe('inactive');

    await row.getByRole('button', { name: `Status of ${BOB}: inactive` }).click();
    await confirm.getByRole('button', { name: 'Set active' }).click();
    await expectSnackbar(page, 'User set to active');
    await row.getByRole('button', { name: `Status of ${BOB}: active` }).waitFor();
    expect((await findUser(BOB))!.status).toBe('active');
  });

  it('assigns a group with the group selector', async () => {
    const row = userRow(page, BOB);
    await row.getByRole('button', { name: `Edit groups of ${BOB}` }).click();
    const popover = page.getByRole('dialog', { name: `Groups of ${BOB}` });
    await popover.waitFor();
    expect(await popover.getByRole('checkbox', { name: /^Users/ }).isChecked()).toBe(true);
    const save = popover.getByRole('button', { name: 'Save' });
    expect(await save.isDisabled()).toBe(true);
    await popover.getByRole('checkbox', { name: new RegExp(`^${HELPERS_GROUP}`) }).click();
    await save.click();
    await expectSnackbar(page, 'Groups updated');
    await popover.waitFor({ state: 'hidden' });
    await expect.poll(() => row.getByRole('button', { name: `Edit groups of ${BOB}` }).textContent()).toContain(HELPERS_GROUP);
    const bob = await findUser(BOB);
    const [helpers] = await server.deps.db.select().from(groups).where(eq(groups.name, HELPERS_GROUP));
    const memberships = await server.deps.db
      .select()
      .from(userGroups)
      .where(and(eq(userGroups.userId, bob!.id), eq(userGroups.groupId, helpers!.id)));
    expect(memberships).toHaveLength(1);
  });

  it('resets a password in the change-password dialog, and the user signs in with it', async () => {
    await userRow(page, BOB)
      .getByRole('button', { name: `Change password of ${BOB}` })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Change Password' });
    await dialog.waitFor();
    const password = dialog.getByLabel('New Password (min 6)');
    const confirmPassword = dialog.getByLabel('Confirm Password');
    const save = dialog.getByRole('button', { name: 'Save' });
    expect(await save.isDisabled()).toBe(true);
    await password.fill('short');
    await confirmPassword.fill('short');
    expect(await save.isDisabled()).toBe(true);
    await password.fill(BOB_NEW_PASSWORD);
    await confirmPassword.fill(`${BOB_NEW_PASSWORD}x`);
    await dialog.getByText('Passwords do not match').waitFor();
    expect(await save.isDisabled()).toBe(true);
    await confirmPassword.fill(BOB_NEW_PASSWORD);
    expect(await dialog.getByText('Passwords do not match').count()).toBe(0);
    expect(await save.isEnabled()).toBe(true);
    await screenshot(page, 'admin-users-password-dialog-desktop.png', { fullPage: true });
    await page.setViewportSize(VIEWPORTS.phone);
    await screenshot(page, 'admin-users-password-dialog-phone.png');
    await page.setViewportSize(VIEWPORTS.desktop);
    await save.click();
    await expectSnackbar(page, 'Password changed successfully');
    await dialog.waitFor({ state: 'hidden' });

    const bobContext = await browser.newContext({ viewport: VIEWPORTS.phone });
    const bobPage = await bobContext.newPage();
    await signIn(bobPage, BOB, BOB_NEW_PASSWORD);
    await bobPage.getByRole('banner').getByRole('link', { name: 'Account settings' }).waitFor();
    // A plain user opening /admin (or a sub-page) is sent to /.
    for (const guarded of ['/admin', '/admin/users']) {
      await bobPage.goto(`${server.url}${guarded}`);
      await bobPage.waitForURL(`${server.url}/`);
    }
    expect(await bobPage.getByRole('banner').getByRole('link', { name: 'Admin' }).count()).toBe(0);
    await bobContext.close();
  });

  it('shows one card per user on a phone, with every field and action', async () => {
    await page.setViewportSize(VIEWPORTS.phone);
    await page.goto(`${server.url}/admin/users`);
    const card = page.locator(`[data-user-card="${BOB}"]`);
    await card.waitFor();
    expect(await userRow(page, BOB).isVisible()).toBe(false);
    for (const text of ['ID', 'Email', 'Groups', 'Created', 'Updated', HELPERS_GROUP]) expect(await card.textContent()).toContain(text);
    for (const name of [`Status of ${BOB}: active`, `Edit groups of ${BOB}`, `Change password of ${BOB}`, `Delete ${BOB}`]) {
      expect(await card.getByRole('button', { name }).isVisible()).toBe(true);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await screenshot(page, 'admin-users-phone.png', { fullPage: true });
    await page.setViewportSize(VIEWPORTS.desktop);
    await screenshot(page, 'admin-users-desktop.png', { fullPage: true });
  });

  it('deletes a user after a confirmation', async () => {
    await userRow(page, CAROL)
      .getByRole('button', { name: `Delete ${CAROL}` })
      .click();
    const confirm = page.getByRole('alertdialog');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expectSnackbar(page, 'User deleted');
    await userRow(page, CAROL).waitFor({ state: 'detached' });
    expect(await findUser(CAROL)).toBeUndefined();
  });

  it('adds a group and edits its permissions', async () => {
    await page.goto(`${server.url}/admin/groups`);
    await groupRow(page, 'Administrators').waitFor();
    const headers = await page.getByRole('table', { name: 'Groups' }).locator('th').allTextContents();
    expect(headers).toEqual(['ID', 'Name', 'Description', 'Edit Permissions', 'Actions']);
    // Built-in groups cannot be deleted.
    expect(
      await groupRow(page, 'Administrators')
        .getByRole('button', { name: /^Delete/ })
        .count(),
    ).toBe(0);

    await page.getByRole('button', { name: 'Add Group' }).click();
    const addDialog = page.getByRole('dialog', { name: 'Add Group' });
    const create = addDialog.getByRole('button', { name: 'Create' });
    expect(await create.isDisabled()).toBe(true);
    await addDialog.getByLabel('Name').fill('   ');
    expect(await create.isDisabled()).toBe(true);
    // A name already taken: the server's text shows in the form.
    await addDialog.getByLabel('Name').fill('users');
    await create.click();
    await expect.poll(() => addDialog.locator('[role=alert]').textContent()).toContain('A group with this name already exists');
    await addDialog.getByLabel('Name').fill('  Packers ');
    await addDialog.getByLabel('Description (optional)').fill('Members who pack the parcels');
    await create.click();
    await addDialog.waitFor({ state: 'hidden' });
    const row = groupRow(page, 'Packers');
    await row.waitFor();
    expect(await row.textContent()).toContain('Members who pack the parcels');

    await row.getByRole('button', { name: 'Edit permissions of Packers' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Permissions: Packers' });
    await dialog.waitFor();
    const box = dialog.getByRole('checkbox', { name: /^users\.assign/ });
    expect(await box.isChecked()).toBe(false);
    // One checkbox per permission, under its key prefix.
    for (const prefix of ['admin', 'premium', 'settings', 'users']) {
      await dialog.locator('legend', { hasText: new RegExp(`^${prefix}$`) }).waitFor();
    }
    await box.click();
    expect(await box.isChecked()).toBe(true);
    await screenshot(page, 'admin-groups-permissions-dialog-desktop.png', { fullPage: true });
    await page.setViewportSize(VIEWPORTS.phone);
    await screenshot(page, 'admin-groups-permissions-dialog-phone.png');
    await page.setViewportSize(VIEWPORTS.desktop);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expectSnackbar(page, 'Permissions updated successfully.');
    await dialog.waitFor({ state: 'hidden' });

    await row.getByRole('button', { name: 'Edit permissions of Packers' }).click();
    await dialog.waitFor();
    expect(await dialog.getByRole('checkbox', { name: /^users\.assign/ }).isChecked()).toBe(true);
    const [packers] = await server.deps.db.select().from(groups).where(eq(groups.name, 'Packers'));
    const grants = await server.deps.db
      .select({ key: permissions.key })
      .from(groupPermissions)
      .innerJoin(permissions, eq(permissions.id, groupPermissions.permissionId))
      .where(eq(groupPermissions.groupId, packers!.id));
    expect(grants).toEqual([{ key: 'users.assign' }]);

    // Unticking saves a removal.
    await dialog.getByRole('checkbox', { name: /^users\.assign/ }).click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expectSnackbar(page, 'Permissions updated successfully.');
    await dialog.waitFor({ state: 'hidden' });
    expect(await server.deps.db.select().from(groupPermissions).where(eq(groupPermissions.groupId, packers!.id))).toEqual([]);
  });

  it('deletes a group after a confirmation', async () => {
    await screenshot(page, 'admin-groups-desktop.png', { fullPage: true });
    await page.setViewportSize(VIEWPORTS.phone);
    await page.locator('[data-group-card="Packers"]').getByRole('button', { name: 'Edit permissions of Packers' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await screenshot(page, 'admin-groups-phone.png', { fullPage: true });
    await page.setViewportSize(VIEWPORTS.desktop);
    await groupRow(page, 'Packers').getByRole('button', { name: 'Delete group Packers' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await groupRow(page, 'Packers').waitFor({ state: 'detached' });
    expect(await server.deps.db.select().from(groups).where(eq(groups.name, 'Packers'))).toEqual([]);
  });

  it('adds and deletes a permission, grouped by key prefix in collapsible sections', async () => {
    await page.goto(`${server.url}/admin/permissions`);
    await page.getByRole('heading', { name: 'Permission Management' }).waitFor();
    const section = (prefix: string) => page.locator(`[data-prefix="${prefix}"]`);
    await section('users').waitFor();
    expect(await section('users').textContent()).toContain('users.assign');
    // Built-in permissions cannot be deleted.
    expect(
      await section('users')
        .getByRole('button', { name: /^Delete/ })
        .count(),
    ).toBe(0);

    await page.getByRole('button', { name: 'Add Permission' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Permission' });
    const add = dialog.getByRole('button', { name: 'Add', exact: true });
    expect(await add.isDisabled()).toBe(true);
    await dialog.getByLabel('Key').fill('  orders.export ');
    await dialog.getByLabel('Description').fill('  Export the orders  ');
    await add.click();
    await expectSnackbar(page, 'Permission added successfully.');
    await dialog.waitFor({ state: 'hidden' });
    const row = page.locator('[data-permission="orders.export"]');
    await row.waitFor();
    expect(await row.textContent()).toContain('Export the orders');
    const [stored] = await server.deps.db.select().from(permissions).where(eq(permissions.key, 'orders.export'));
    expect(stored?.description).toBe('Export the orders');

    // The same key again: the server's text shows in the form.
    await page.getByRole('button', { name: 'Add Permission' }).click();
    await dialog.getByLabel('Key').fill('orders.export');
    await add.click();
    await expect.poll(() => dialog.locator('[role=alert]').textContent()).toContain('A permission with this key already exists');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });

    // A section collapses and opens again.
    const trigger = section('users').getByRole('button', { name: /users/ });
    await trigger.click();
    await expect.poll(() => trigger.getAttribute('aria-expanded')).toBe('false');
    await page.locator('[data-permission="users.assign"]').waitFor({ state: 'hidden' });
    await trigger.click();
    await page.locator('[data-permission="users.assign"]').waitFor();

    await screenshot(page, 'admin-permissions-desktop.png', { fullPage: true });
    await page.setViewportSize(VIEWPORTS.phone);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await screenshot(page, 'admin-permissions-phone.png', { fullPage: true });
    await page.setViewportSize(VIEWPORTS.desktop);

    await row.getByRole('button', { name: 'Delete permission orders.export' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await expectSnackbar(page, 'Permission deleted.');
    await row.waitFor({ state: 'detached' });
    expect(await section('orders').count()).toBe(0);
    expect(await server.deps.db.select().from(permissions).where(eq(permissions.key, 'orders.export'))).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});

describe('code splitting', () => {
  it('never sends admin code to a visitor of the public pages', async () => {
    // The chunks that hold the admin screens, as the build wrote them.
    const assetsDir = join(process.cwd(), 'dist', 'web', 'assets');
    const adminChunks = readdirSync(assetsDir).filter(
      (file) => file.endsWith('.js') && readFileSync(join(assetsDir, file), 'utf8').includes('User Management'),
    );
    expect(adminChunks.length).toBeGreaterThan(0);

    const context = await browser.newContext({ viewport: VIEWPORTS.desktop });
    const page = await context.newPage();
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script' || new URL(request.url()).pathname.endsWith('.js')) scripts.push(request.url());
    });
    await page.goto(`${server.url}/`, { waitUntil: 'networkidle' });
    await expect.poll(() => page.locator('h1').first().textContent()).toContain('Kerstactie');
    expect(scripts.length).toBeGreaterThan(0);
    for (const url of scripts) {
      expect(adminChunks).not.toContain(basename(new URL(url).pathname));
      const body = await (await fetch(url)).text();
      expect(body, url).not.toContain('User Management');
      expect(body, url).not.toContain('Permission Management');
    }
    await context.close();
  });
});
