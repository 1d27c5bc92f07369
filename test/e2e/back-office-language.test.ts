import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locale } from '../../src/core/locales';
import { BUILT_IN_SETTINGS } from '../../src/features/settings/settings.defaults';
import { SEED_GROUPS, SEED_PERMISSIONS } from '../../src/features/setup/seed-data';
import { catalogues, type Messages } from '../../web/i18n/catalogue';
import { buildTestApk } from '../support/zip';
import { blockingAxeViolations } from './axe';
import {
  animationsDone,
  createPlainUser,
  launchChromium,
  openWatchedPage,
  overflowingElements,
  postJson,
  signIn,
  startTestServer,
  VIEWPORTS,
  screenshot,
  watchNetwork,
} from './browser';

/**
 * docs/decisions/011, a Dutch back-office: every admin and account screen, and every dialog on them, walked in
 * English and in Dutch in Chromium against the real Node server. In Dutch no English text of the
 * catalogue and no common English UI word is left on screen (in text, labels, tooltips, placeholders or
 * the page title); in English the specification's texts are there. The language is the user's choice on
 * the account page and survives a reload; the Management page stays Dutch; axe-clean in both (each language at
 * one of the two widths).
 */

let browser: Browser;
let server: Awaited<ReturnType<typeof startTestServer>>;

const ADMIN_PASSWORD = 'e2e-admin-password';

/**
 * English words a Dutch screen must not show. Words Dutch shares with English (Status, Type, Account,
 * Admin, E-mail, Tablers) are not in it.
 */
const ENGLISH_WORDS = [
  'the',
  'and',
  'Save',
  'Cancel',
  'Delete',
  'Add',
  'Edit',
  'Create',
  'Close',
  'Loading',
  'Failed',
  'Please',
  'Username',
  'Password',
  'Email',
  'Groups',
  'Permissions',
  'Permission',
  'Settings',
  'Setting',
  'Users',
  'User',
  'Actions',
  'Created',
  'Updated',
  'Name',
  'Description',
  'Value',
  'Key',
  'Search',
  'Upload',
  'Download',
  'Version',
  'Versions',
  'Logout',
  'Enable',
  'Disable',
  'Yes',
  'No',
  'Retry',
  'Back',
  'Next',
  'Previous',
  'Page',
  'None',
  'you',
  'Select',
  'Public',
  'Private',
  'required',
  'must',
  'cannot',
  'Latest',
  'Archive',
  'Change',
  'New',
  'Old',
  'Confirm',
  'Sign',
  'Signed',
  'Devices',
  'Recovery',
  'codes',
  'Two-factor',
  'authentication',
  'Language',
  'Audit',
  'log',
  'Action',
  'Target',
  'When',
  'Who',
  'Filter',
  'all',
  'Active',
  'Inactive',
  'Deletable',
  'Group',
  'Current',
  'this',
  'device',
  'Revoke',
  'Other',
  'sessions',
];

type Screen = {
  path: string;
  /** The page's heading, by language: proves the screen is the one meant, and translated. */
  heading: (t: Messages) => string;
  /**
   * What the screen opens: each step answers the dialog it opened (closed again with Escape), or null for
   * a part shown in place (the last step then).
   */
  dialogs?: ((page: Page, t: Messages) => Promise<Locator | null>)[];
};

const MEMBER = 'e2e_wiebe';
const GROUP = 'Inpakkers';
const PERMISSION = 'pakket.inpakken';
const SETTING = 'club_motto';
const VERSION = '2.1.0';

/** A dialog opened by the button or link of that accessible name; answers the dialog. */
function dialogFrom(name: (t: Messages) => string, exact = true): (page: Page, t: Messages) => Promise<Locator> {
  return async (page, t) => {
    await page
      .getByRole('button', { name: name(t), exact })
      .first()
      .click();
    const dialog = page.getByRole('dialog').or(page.getByRole('alertdialog')).first();
    await dialog.waitFor();
    return dialog;
  };
}

const SCREENS: Screen[] = [
  {
    path: '/account',
    heading: (t) => t.account.title,
    dialogs: [
      // Two-factor set-up opens in the card: its QR code, key and code field.
      async (page, t) => {
        await page.getByRole('button', { name: t.account.twoFactor.enable, exact: true }).click();
        await page.getByLabel(t.account.twoFactor.codeLabel).waitFor();
        return null;
      },
    ],
  },
  { path: '/admin', heading: (t) => t.shell.home.title },
  {
    path: '/admin/users',
    heading: (t) => t.users.title,
    dialogs: [dialogFrom((t) => t.users.changePasswordOf(MEMBER)), dialogFrom((t) => t.users.deleteUser.label(MEMBER))],
  },
  {
    path: '/admin/groups',
    heading: (t) => t.groups.title,
    dialogs: [
      dialogFrom((t) => t.groups.addGroup.title),
      dialogFrom((t) => t.groups.editPermissionsOf(GROUP)),
      dialogFrom((t) => t.groups.deleteGroup.label(GROUP)),
    ],
  },
  {
    path: '/admin/permissions',
    heading: (t) => t.permissions.title,
    dialogs: [dialogFrom((t) => t.permissions.addPermission.title), dialogFrom((t) => t.permissions.deletePermission.label(PERMISSION))],
  },
  {
    path: '/admin/settings',
    heading: (t) => t.settings.title,
    dialogs: [
      dialogFrom((t) => t.settings.addSetting),
      dialogFrom((t) => t.settings.row.editLabel(SETTING)),
      dialogFrom((t) => t.settings.row.deleteLabel(SETTING)),
    ],
  },
  {
    path: '/admin/versions',
    heading: (t) => t.versions.title,
    dialogs: [dialogFrom((t) => t.versions.uploadVersion), dialogFrom((t) => t.versions.deleteLabel(VERSION))],
  },
  { path: '/admin/audit', heading: (t) => t.audit.title },
];

/** Every text a user can meet on the page: visible text, accessible names, tooltips, placeholders, the title. */
async function textsOf(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    // The footer is the public site's (its 'Built with' line is the specification's), the same for everyone.
    const inFooter = (el: Element) => el.closest('footer') !== null;
    const footers = [...document.querySelectorAll('footer')];
    for (const footer of footers) footer.style.display = 'none';
    // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is wanted, without the hidden footers and other unrendered elements
    const texts = [document.title, ...document.body.innerText.split('\n')];
    for (const footer of footers) footer.style.display = '';
    for (const el of document.body.querySelectorAll('*')) {
      if (inFooter(el)) continue;
      for (const attribute of ['aria-label', 'title', 'placeholder', 'alt', 'aria-description']) {
        const value = el.getAttribute(attribute);
        if (value) texts.push(value);
      }
      // Screen-reader-only texts are in innerText only when rendered; read them directly.
      if (el.classList.contains('sr-only') && el.textContent) texts.push(el.textContent);
    }
    return texts.map((text) => text.trim()).filter((text) => text !== '');
  });
}

/** English catalogue texts (and the fixed parts of its functions) that Dutch says differently. */
function englishOnlyTexts(): string[] {
  const found = new Set<string>();
  const walk = (en: unknown, nl: unknown) => {
    if (typeof en === 'string') {
      if (en !== nl && en.length >= 4) found.add(en);
    } else if (typeof en === 'function') {
      try {
        const sample = (en as (...args: string[]) => string)('⁂', '⁂', '⁂');
        for (const part of sample.split('⁂')) if (part.trim().length >= 8) found.add(part.trim());
      } catch {
        // A function doing arithmetic on its argument: its words are checked by ENGLISH_WORDS.
      }
    } else if (en && typeof en === 'object') {
      for (const [key, value] of Object.entries(en)) walk(value, (nl as Record<string, unknown>)[key]);
    }
  };
  walk(catalogues.en, catalogues.nl);
  return [...found];
}

/** What is left of English on a Dutch screen, data (names, keys, descriptions the club typed) taken out first. */
function englishLeftovers(texts: string[], data: string[]): string[] {
  const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // Whole words only: 'Download' is not in 'Downloaden'.
  const wholeWords = (alternatives: string[]) => new RegExp(`(?<![\\p{L}_.-])(${alternatives.join('|')})(?![\\p{L}_-])`, 'u');
  const catalogue = wholeWords(
    englishOnlyTexts()
      .sort((a, b) => b.length - a.length)
      .map(escapeRegExp),
  );
  const words = wholeWords(ENGLISH_WORDS);
  const left: string[] = [];
  for (const original of texts) {
    let text = original;
    for (const value of data) text = text.split(value).join(' ');
    const hit = catalogue.exec(text)?.[0] ?? words.exec(text)?.[0];
    if (hit) left.push(`${JSON.stringify(hit)} in ${JSON.stringify(original.slice(0, 120))}`);
  }
  return [...new Set(left)];
}

/**
 * Names, keys and descriptions stored in the database: data, shown as typed whatever the language. The
 * built-in descriptions (the seed's English) are not data: a Dutch screen shows them in Dutch.
 */
async function dataTexts(page: Page): Promise<string[]> {
  const builtIn = new Set<string>([...BUILT_IN_SETTINGS, ...SEED_PERMISSIONS, ...SEED_GROUPS].map((thing) => thing.description));
  const stored = await page.evaluate(async () => {
    const get = async (path: string) => (await fetch(path)).json();
    const [users, groups, permissions, settings] = await Promise.all([get('/api/users'), get('/api/groups'), get('/api/permissions'), get('/api/settings')]);
    const values: string[] = [];
    for (const user of users.users) values.push(user.username, user.email ?? '');
    for (const group of groups.groups) values.push(group.name, group.description ?? '');
    // A permission's key and its prefix, which heads its section.
    for (const permission of permissions.permissions) values.push(permission.key, permission.key.split('.')[0], permission.description ?? '');
    for (const setting of Object.values(settings) as { key?: string; description?: string; value?: unknown }[]) {
      if (setting && typeof setting === 'object')
        values.push(setting.key ?? '', setting.description ?? '', typeof setting.value === 'string' ? setting.value : '');
    }
    return values;
  });
  // Longest first, so a description goes before a word inside it.
  return stored.filter((value) => value.trim().length > 1 && !builtIn.has(value)).sort((a, b) => b.length - a.length);
}

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchChromium();
  // One of each thing the screens list, deletable, so every row action and dialog is there to open.
  await createPlainUser(server, MEMBER, 'Wiebe-pass-123');
  const { context, page } = await openWatchedPage(browser);
  await signIn(page, server.url, 'admin', ADMIN_PASSWORD);
  const created = [
    await postJson(page, '/api/groups/addgroup', { name: GROUP, description: 'Pakken de kerstpakketten in' }),
    await postJson(page, '/api/permissions/add', { key: PERMISSION, description: 'Mag pakketten inpakken' }),
    await postJson(page, '/api/settings/add', {
      key: SETTING,
      value: 'Samen voor Harlingen',
      type: 'string',
      visibility: 'public',
      description: 'Motto op de site',
    }),
  ];
  for (const answer of created) expect(answer).toMatchObject({ status: 200, json: { success: true } });
  const apk = Buffer.from(buildTestApk()).toString('base64');
  const uploaded = await page.evaluate(
    async ([apk, name]) => {
      const form = new FormData();
      form.append('version_name', name);
      form.append('version_code', '21');
      form.append('apk_file', new File([Uint8Array.from(atob(apk), (c) => c.charCodeAt(0))], 'app.apk', { type: 'application/vnd.android.package-archive' }));
      return (await fetch('/api/update/upload', { method: 'POST', body: form })).status;
    },
    [apk, VERSION] as const,
  );
  expect(uploaded).toBe(200);
  await context.close();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('the back-office in English and Dutch', () => {
  it('is chosen on the account page, stored on the user, and kept after a reload; the public site stays Dutch', async () => {
    const { context, page, errors } = await openWatchedPage(browser, { viewport: VIEWPORTS.desktop });
    await signIn(page, server.url, 'admin', ADMIN_PASSWORD);
    await page.goto(`${server.url}/account`);
    const en = catalogues.en;
    const nl = catalogues.nl;
    await page.getByRole('heading', { name: en.language.title }).waitFor();
    await page.getByRole('radio', { name: 'Nederlands' }).click();
    // Checked once the choice is stored: the radio follows the saved language.
    await expect.poll(() => page.getByRole('radio', { name: 'Nederlands' }).isChecked()).toBe(true);
    await page.getByText(nl.language.saved).waitFor();
    await page.getByRole('heading', { name: nl.language.title }).waitFor();
    expect(await page.locator('[lang=nl] h1').first().textContent()).not.toBe('My Account');
    await page.reload();
    await page.getByRole('heading', { name: nl.language.title }).waitFor();
    expect(await page.getByRole('radio', { name: 'Nederlands' }).isChecked()).toBe(true);
    await screenshot(page, 'account-language-nl-desktop.png', { fullPage: true });

    // The public home page does not follow the choice: it is Dutch for everyone.
    await page.goto(`${server.url}/`);
    expect(await page.locator('html').getAttribute('lang')).toBe('nl');

    // The Management page is Dutch whatever the choice, and says so to screen readers.
    await page.goto(`${server.url}/admin/management`);
    await page.getByRole('tab', { name: 'Bestellingen' }).waitFor();
    expect(await page.locator('[lang=nl]:has(h1)').count()).toBeGreaterThan(0);

    await page.goto(`${server.url}/account`);
    await page.getByRole('radio', { name: 'English' }).click();
    await page.getByText(en.language.saved).waitFor();
    await page.getByRole('heading', { name: 'My Account' }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  for (const locale of ['nl', 'en'] as const satisfies Locale[]) {
    for (const viewport of ['desktop', 'phone'] as const) {
      it(`shows every admin and account screen, and its dialogs, in ${locale === 'nl' ? 'Dutch' : 'English'} at ${VIEWPORTS[viewport].width} px`, async () => {
        const t = catalogues[locale];
        // axe once per language and once per width (Dutch at 375 px, English at 1280 px): a language changes the
        // texts and names axe reads, a width the layout and contrast it checks; all four took CI half a minute
        // more (docs/decisions/063).
        const withAxe = (locale === 'nl') === (viewport === 'phone');
        const { context, page, errors } = await openWatchedPage(browser, { viewport: VIEWPORTS[viewport] });
        await signIn(page, server.url, 'admin', ADMIN_PASSWORD);
        expect((await postJson(page, '/api/account/locale', { locale })).json).toEqual({ success: true });
        const data = await dataTexts(page);
        const problems: string[] = [];
        const network = watchNetwork(page);
        for (const screen of SCREENS) {
          await page.goto(`${server.url}${screen.path}`);
          await page.getByRole('heading', { level: 1, name: screen.heading(t), exact: true }).waitFor();
          await network.quiet();
          const where = `${screen.path} (${locale}, ${VIEWPORTS[viewport].width} px)`;
          if (locale === 'nl') problems.push(...englishLeftovers(await textsOf(page), data).map((p) => `${where}: ${p}`));
          const overflow = await overflowingElements(page);
          if (overflow.length > 0) problems.push(`${where} overflows: ${overflow.join(', ')}`);
          const axe = withAxe ? await blockingAxeViolations(page, where) : '';
          if (axe) problems.push(`${where}: ${axe}`);
          const name = `back-office-${screen.path.replaceAll('/', '-').replace(/^-/, '')}-${locale}-${viewport}`;
          await screenshot(page, `${name}.png`, { fullPage: true });
          for (const [i, open] of (screen.dialogs ?? []).entries()) {
            const dialog = await open(page, t);
            if (dialog) await animationsDone(dialog);
            // The pointer leaves the button it pressed: a hover colour under it is not what the dialog looks like.
            await page.mouse.move(0, 0);
            const dialogWhere = `${where} dialog ${i + 1}`;
            if (locale === 'nl') problems.push(...englishLeftovers(await textsOf(page), data).map((p) => `${dialogWhere}: ${p}`));
            // The page behind was checked above: the dialog, or the part shown in place, is what is new.
            const dialogAxe = withAxe ? await blockingAxeViolations(page, dialogWhere, dialog ?? undefined) : '';
            if (dialogAxe) problems.push(`${dialogWhere}: ${dialogAxe}`);
            await screenshot(page, `${name}-dialog-${i + 1}.png`);
            if (dialog) {
              await page.keyboard.press('Escape');
              await dialog.waitFor({ state: 'hidden' });
            }
          }
        }
        expect(problems).toEqual([]);
        expect(errors).toEqual([]);
        expect((await postJson(page, '/api/account/locale', { locale: 'en' })).json).toEqual({ success: true });
        await context.close();
      });
    }
  }
});
