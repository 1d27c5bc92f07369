import { and, eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asClubId, clubDb, FIRST_CLUB_ID } from '../../src/db/club-db';
import { clubs, mailOutbox, settings, tablers } from '../../src/db/schema';
import { axeViolations, describeViolations } from './axe';
import { animationsDone, launchChromium, openWatchedPage, screenshot, signIn, startTestServer, VIEWPORTS } from './browser';

/**
 * docs/decisions/071 and 073: the platform in Chromium against the real Node server, with `*.club.test` resolving to
 * it: the Clubs screen makes a club, whose admin sets a password, signs in on the club's host and gets the set-up;
 * a club signs itself up on /aanmelden and opens its mailed link; a suspended club's host answers its Dutch page.
 */

let browser: Browser;
let server: Awaited<ReturnType<typeof startTestServer>>;

const ADMIN_PASSWORD = 'e2e-admin-password';
const CLUB_ADMIN_PASSWORD = 'Sneek-Beheer-2026!';
const clubUrl = (slug: string) => `http://${slug}.club.test:${server.port}`;

beforeAll(async () => {
  server = await startTestServer({ CLUBS_DOMAIN: 'club.test' });
  browser = await launchChromium({ loopbackHosts: '*.club.test' });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** The link a club's mail carries, read from that club's outbox. */
async function mailedLink(clubId: number, to: string, pattern: RegExp): Promise<string> {
  const db = clubDb(server.database, asClubId(clubId));
  const [mail] = await db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, to));
  const found = pattern.exec(mail?.textBody ?? '');
  if (!found) throw new Error(`No link in the mail to ${to}: ${mail?.textBody}`);
  return found[1]!;
}

async function expectNoViolations(page: Page) {
  await animationsDone(page.locator('body'));
  const violations = await axeViolations(page);
  expect(violations, describeViolations(violations)).toEqual([]);
}

describe('the platform in Chromium', () => {
  let sneekId = 0;

  it('makes a club in the Clubs screen, whose admin signs in on its own host and sets the club up (1280 px)', async () => {
    const { context, page, errors } = await openWatchedPage(browser, { viewport: VIEWPORTS.desktop });
    await signIn(page, server.url, 'admin', ADMIN_PASSWORD);
    await page.goto(`${server.url}/admin`);
    await page.getByRole('link', { name: /^Clubs/ }).click();
    await page.getByRole('heading', { name: 'Clubs', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'New club' }).click();
    const form = page.getByRole('form', { name: 'New club' });
    await form.getByLabel('Name').fill('Ronde Tafel 99 Sneek');
    await form.getByLabel('Slug').fill('Sneek!');
    await form.getByLabel('First admin’s e-mail').fill('beheer@sneek.example');
    await form.getByRole('button', { name: 'Create club' }).click();
    await form.getByText('Use 3 to 40 characters: lower-case letters, digits and dashes.').waitFor();
    await form.getByLabel('Slug').fill('sneek');
    await animationsDone(page.getByRole('dialog'));
    await screenshot(page, 'clubs-new-club-1280.png');
    await form.getByRole('button', { name: 'Create club' }).click();
    const row = page.locator('tr[data-club=sneek]');
    await row.waitFor();
    expect(await row.locator('td').allInnerTexts()).toEqual(
      expect.arrayContaining(['Ronde Tafel 99 Sneek', 'sneek', 'No hosts of its own', 'Active', '0', '1']),
    );
    // The first club runs the deployment: it has no Suspend.
    await expect
      .poll(() =>
        page
          .locator('tr[data-club=kerstactie]')
          .getByRole('button', { name: /Suspend/ })
          .count(),
      )
      .toBe(0);
    // At 1280 px the whole row fits, its buttons too, without scrolling the table.
    const suspend = await row.getByRole('button', { name: 'Suspend Ronde Tafel 99 Sneek' }).boundingBox();
    const newClub = await page.getByRole('button', { name: 'New club' }).boundingBox();
    expect(suspend!.x + suspend!.width).toBeLessThanOrEqual(newClub!.x + newClub!.width);
    await expectNoViolations(page);
    await screenshot(page, 'clubs-list-1280.png');
    expect(errors).toEqual([]);
    await context.close();

    const [sneek] = await server.database.select().from(clubs).where(eq(clubs.slug, 'sneek'));
    sneekId = sneek!.id;
    const token = await mailedLink(sneekId, 'beheer@sneek.example', /reset-password\?token=([A-Za-z0-9_-]+)/);

    const club = await openWatchedPage(browser, { viewport: VIEWPORTS.desktop });
    await club.page.goto(`${clubUrl('sneek')}/reset-password?token=${token}`);
    await club.page.getByLabel('New Password', { exact: true }).fill(CLUB_ADMIN_PASSWORD);
    await club.page.getByLabel('Confirm New Password').fill(CLUB_ADMIN_PASSWORD);
    await club.page.getByRole('button', { name: 'Set new password' }).click();
    await club.page.getByText('Your password has been changed.').waitFor();
    await signIn(club.page, clubUrl('sneek'), 'admin', CLUB_ADMIN_PASSWORD);

    // The admin area opens on the set-up while club_setup_pending is on.
    await club.page.goto(`${clubUrl('sneek')}/admin/users`);
    await club.page.waitForURL(`${clubUrl('sneek')}/admin/setup`);
    const setup = club.page.getByRole('form', { name: 'Set up your club' });
    expect(await setup.getByLabel('Club name').inputValue()).toBe('Ronde Tafel 99 Sneek');
    await setup.getByRole('button', { name: 'Finish set-up' }).click();
    await setup.getByText('Town is required.').waitFor();
    await setup.getByLabel('Town').fill('Sneek');
    // The club's mail address starts as its first admin's; the address is the club's own to give (docs/decisions/073).
    expect([await setup.getByLabel('Address', { exact: true }).inputValue(), await setup.getByLabel('Club e-mail address').inputValue()]).toEqual([
      '',
      'beheer@sneek.example',
    ]);
    await setup.getByLabel('Address', { exact: true }).fill('Kleine Kerkstraat 1, 8601 AA Sneek');
    await setup.getByLabel('IBAN').fill('NL00WRONG');
    await setup.getByLabel('KvK number').fill('12345678');
    await setup.getByLabel('VAT id').fill('NL123456789B01');
    await setup.getByLabel('Package price (euro, excluding VAT)').fill('80');
    await setup.getByLabel('First tablers').fill('Jan de Vries\nPiet Bakker\n');
    await setup.getByRole('button', { name: 'Finish set-up' }).click();
    await setup.locator('[role=alert]').filter({ hasText: 'IBAN:' }).waitFor();
    await expectNoViolations(club.page);
    await screenshot(club.page, 'clubs-setup-refused-1280.png', { fullPage: true });
    await setup.getByLabel('IBAN').fill('NL91ABNA0417164300');
    await setup.getByRole('button', { name: 'Finish set-up' }).click();
    await club.page.waitForURL(`${clubUrl('sneek')}/admin`);
    await club.page.getByText('Your club is set up.').waitFor();

    const db = clubDb(server.database, asClubId(sneekId));
    const stored = Object.fromEntries((await db.select().from(settings)).map((s) => [s.key, s.value]));
    expect([
      stored.club_town,
      stored.club_address,
      stored.club_email,
      stored.club_iban,
      stored.club_kvk_number,
      stored.club_vat_id,
      stored.package_price,
      stored.club_setup_pending,
    ]).toEqual(['Sneek', 'Kleine Kerkstraat 1, 8601 AA Sneek', 'beheer@sneek.example', 'NL91ABNA0417164300', '12345678', 'NL123456789B01', '80', 'false']);
    expect((await db.select().from(tablers)).map((t) => t.name).sort()).toEqual(['Jan de Vries', 'Piet Bakker']);
    // Not the platform: no Clubs tile; and no backups panel, the first club's alone.
    await club.page.getByRole('link', { name: /^Settings/ }).waitFor();
    expect(await club.page.getByRole('link', { name: /^Clubs/ }).count()).toBe(0);
    await club.page.goto(`${clubUrl('sneek')}/admin/settings`);
    await club.page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    await club.page.getByText('club_town', { exact: true }).first().waitFor();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await club.page.locator('[data-slot=backups-card]').count()).toBe(0);
    // The public footer is the club's own: its address and e-mail, none of the first club's links (no Volg ons).
    await club.page.goto(`${clubUrl('sneek')}/`);
    const footer = club.page.locator('[data-slot=site-footer]');
    await footer.getByText('Ronde Tafel 99 Sneek · Kleine Kerkstraat 1, 8601 AA Sneek').waitFor();
    expect(await footer.getByRole('link', { name: 'beheer@sneek.example' }).count()).toBe(1);
    expect(await footer.getByRole('heading', { name: 'Volg ons' }).count()).toBe(0);
    expect(await footer.textContent()).not.toContain('Harlingen');
    expect(club.errors).toEqual([]);
    await club.context.close();
  });

  it('signs a club up on /aanmelden and opens the mailed link (375 px)', async () => {
    const { context, page, errors } = await openWatchedPage(browser, { viewport: VIEWPORTS.phone });
    const fill = async () => {
      await page.getByLabel('Naam van de club').fill('Ronde Tafel 7 Oosterhout');
      await page.getByLabel('Adres van de club').fill('oosterhout');
      await page.getByLabel('E-mailadres').fill('secretaris@oosterhout.example');
      await page.getByLabel('Gebruikersnaam').fill('secretaris');
      await page.getByLabel('Wachtwoord').fill('Oosterhout-Kerst-2026');
      await page.getByRole('button', { name: 'Club aanmelden' }).click();
    };
    await page.goto(`${server.url}/aanmelden`);
    await page.getByRole('heading', { name: 'Club aanmelden' }).waitFor();
    expect(await page.locator('meta[name=robots]').getAttribute('content')).toBe('noindex');
    await fill();
    await page.getByText('Aanmelden is op dit moment niet mogelijk.').waitFor();
    await screenshot(page, 'clubs-signup-closed-375.png', { fullPage: true });

    const db = clubDb(server.database, FIRST_CLUB_ID);
    await db.update(settings).set({ value: 'true' }).where(eq(settings.key, 'club_signup'));
    server.deps.settingsCache.invalidate(db);
    await page.reload();
    await fill();
    await page.getByRole('heading', { name: 'Controleer je e-mail' }).waitFor();
    await page.getByText('secretaris@oosterhout.example').waitFor();
    await expectNoViolations(page);
    await screenshot(page, 'clubs-signup-sent-375.png');

    const [mail] = await db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.kind, 'club_signup'), eq(mailOutbox.toAddress, 'secretaris@oosterhout.example')));
    const link = /(http:\/\/\S+\/clubs\/verify\?token=[A-Za-z0-9_-]+)/.exec(mail!.textBody)![1]!;
    await page.goto(link.replace(/^http:\/\/[^/]+/, server.url));
    await page.getByRole('heading', { name: 'Je club staat klaar' }).waitFor();
    expect(await page.getByRole('link', { name: 'Inloggen bij je club' }).getAttribute('href')).toBe(`${clubUrl('oosterhout')}/login`);
    await expectNoViolations(page);
    await screenshot(page, 'clubs-verified-375.png');
    // The link works once.
    await page.reload();
    await page.getByText('Deze bevestigingslink is ongeldig of verlopen. Meld je club opnieuw aan.').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('suspends a club behind a confirm, after which its host answers the Dutch 503 page', async () => {
    const { context, page, errors } = await openWatchedPage(browser, { viewport: VIEWPORTS.desktop });
    await signIn(page, server.url, 'admin', ADMIN_PASSWORD);
    await page.goto(`${server.url}/admin/clubs`);
    await page.getByRole('button', { name: 'Suspend Ronde Tafel 99 Sneek' }).click();
    const confirm = page.getByRole('alertdialog');
    await confirm.getByText('Every page and the API of this club stop at once').waitFor();
    await animationsDone(confirm);
    await screenshot(page, 'clubs-suspend-confirm-1280.png');
    await confirm.getByRole('button', { name: 'Suspend club' }).click();
    await page.locator('tr[data-club=sneek]').getByText('Suspended').waitFor();
    await page.getByRole('button', { name: 'Reactivate Ronde Tafel 99 Sneek' }).waitFor();

    const club = await openWatchedPage(browser, { viewport: VIEWPORTS.phone });
    const answer = await club.page.goto(`${clubUrl('sneek')}/`);
    expect(answer?.status()).toBe(503);
    await club.page.getByRole('heading', { name: 'Deze kerstactie is tijdelijk niet beschikbaar' }).waitFor();
    await screenshot(club.page, 'clubs-suspended-375.png');
    await club.context.close();
    expect(errors).toEqual([]);
    await context.close();
  });
});
