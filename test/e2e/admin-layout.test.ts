import { eq } from 'drizzle-orm';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../src/db/schema';
import { blockingAxeViolations } from './axe';
import { animationsDone, launchChromium, openWatchedPage, overflowingElements, postJson, signIn, startTestServer, VIEWPORTS, screenshot } from './browser';

/**
 * The treasurer's and admins' screens at 1280 and 375 px against the real Node server: the orders and
 * mail tables show every column without scrolling sideways (the mail tab as cards on a phone), the admin
 * pages line up with the header, toolbar and footer, a dialog's error shows once and leaves with the
 * dialog, a zero mail count is not red, and admins see that maintenance mode is on. The mail
 * list pages, and the admin toolbar shows that it scrolls where it does not fit.
 */

let browser: Browser;
let server: Awaited<ReturnType<typeof startTestServer>>;

const ADMIN_PASSWORD = 'e2e-admin-password';
const TABLER = 'Tabler Harlingen';
const OTHER_TABLER = 'Tabler Franeker';
const TABLER_CLASH = `Deze naam lijkt te veel op die van ${TABLER}: het bestelformulier kan ze dan niet uit elkaar houden.`;
/** Long but ordinary customers: the widest cells a real campaign puts in the orders table. */
const CUSTOMERS = [
  {
    name: 'Johanna van der Wielen-Hoekstra',
    email: 'johanna.vanderwielen@kantoorhoekstra-harlingen.nl',
    address: 'Sint Christoffelsteeg 12a',
    notes: 'Graag na 17:00 bezorgen, achterom via de tuin.',
  },
  { name: 'Pieter de Boer', email: 'p.deboer@example.nl', address: 'Noorderhaven 88', notes: null },
  { name: 'Anna Achterstal', email: 'anna@example.nl', address: 'Voorstraat 1', notes: null },
] as const;
const ADMIN_PAGES = [
  '/admin',
  '/admin/users',
  '/admin/groups',
  '/admin/permissions',
  '/admin/settings',
  '/admin/versions',
  '/admin/audit',
  '/admin/management',
];
const MAINTENANCE_EN = {
  title: 'Maintenance mode is on',
  text: 'Everyone without admin access sees the maintenance page instead of the site.',
  link: 'Open the maintenance_mode setting',
};
const MAINTENANCE_NL = {
  title: 'Onderhoudsmodus staat aan',
  text: 'Iedereen zonder beheerderstoegang ziet de onderhoudspagina in plaats van de site.',
  link: 'Naar de instelling maintenance_mode',
};
const SETTING_LINK = '/admin/settings#setting-maintenance_mode';

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchChromium();
  const { context, page } = await openWatchedPage(browser);
  await signIn(page, server.url, 'admin', ADMIN_PASSWORD);
  // Invoices go out only once the club's IBAN, KvK number and VAT id are real.
  for (const [key, value] of Object.entries({ club_iban: 'NL91ABNA0417164300', club_kvk_number: '12345678', club_vat_id: 'NL123456789B01' })) {
    expect((await postJson(page, '/api/settings/update', { key, value })).json).toEqual({ success: true });
  }
  const tablerId = ((await postJson(page, '/tablers/create', { name: TABLER })).json.tabler as { id: number }).id;
  expect((await postJson(page, '/tablers/create', { name: OTHER_TABLER })).status).toBe(200);
  const ids: number[] = [];
  for (const [i, customer] of CUSTOMERS.entries()) {
    const created = await postJson(page, '/orders/create', {
      ...customer,
      tabler_id: tablerId,
      phone: '06 12345678',
      postal_code: '8861 BK',
      city: 'Harlingen',
      amount: i + 2,
    });
    expect(created.status).toBe(200);
  }
  const listed = await page.evaluate(async () => (await (await fetch('/orders')).json()) as { id: number; name: string }[]);
  for (const customer of CUSTOMERS) ids.push(listed.find((o) => o.name === customer.name)!.id);
  // The widest rows: an invoice with a reminder (every invoice button and all three actions) and a credited one.
  for (const id of ids.slice(0, 2)) expect((await postJson(page, `/orders/sendInvoice?id=${id}`, {})).status).toBe(200);
  // On the day of invoicing, before the payment term: sent only when asked for on purpose (decision 059).
  expect((await postJson(page, `/orders/sendReminder?id=${ids[0]}`, { force: true })).status).toBe(200);
  expect((await postJson(page, `/orders/creditInvoice?id=${ids[1]}`, {})).status).toBe(200);
  await context.close();
  // A message that has been tried a few times, with the long address, subject and error real mail brings.
  await server.deps.db.insert(mailOutbox).values({
    kind: 'invoice',
    toAddress: 'facturen.penningmeester@voorbeeld-bouwbedrijf-harlingen.nl',
    subject: 'Factuur F2026-0099 voor uw kerstpakketten van de Kerstactie Ronde Tafel 144 Harlingen',
    textBody: 'Factuur',
    attachments: JSON.stringify([{ filename: 'factuur-F2026-0099.pdf', contentType: 'application/pdf', fileKey: 'none' }]),
    status: 'queued',
    attempts: 3,
    lastError: 'connect ECONNREFUSED 127.0.0.1:587: de mailserver gaf binnen 30 seconden geen antwoord',
    nextAttemptAt: Date.now() + 15 * 60_000,
    createdAt: new Date().toISOString(),
  });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

type Box = { x: number; y: number; width: number; height: number };

async function boxOf(locator: Locator): Promise<Box> {
  const box = await locator.boundingBox();
  if (!box) throw new Error(`${locator} is not on screen`);
  return box;
}

/** The site's column inside its side padding, as the top bar draws it: where a page's content should fit. */
function siteColumn(page: Page): Promise<Pick<Box, 'x' | 'width'>> {
  return page.locator('[data-slot=site-header] > div').evaluate((el) => {
    const { x, width } = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    const [left, right] = [parseFloat(style.paddingLeft), parseFloat(style.paddingRight)];
    return { x: x + left, width: width - left - right };
  });
}

/** Whether `inner` lies wholly within `outer` from left to right (half a pixel of rounding allowed). */
function within(inner: Box, outer: Pick<Box, 'x' | 'width'>): boolean {
  return inner.x >= outer.x - 0.5 && inner.x + inner.width <= outer.x + outer.width + 0.5;
}

/** The theme's two reds (destructive, and its shade for small text) in the form a computed colour takes, to compare with an element's. */
function destructiveColours(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    ['--destructive', '--destructive-text'].map((name) => {
      const probe = document.createElement('span');
      probe.style.color = `var(${name})`;
      document.body.append(probe);
      const colour = getComputedStyle(probe).color;
      probe.remove();
      return colour;
    }),
  );
}

async function coloursOf(locator: Locator): Promise<{ background: string; text: string }> {
  return locator.evaluate((el) => ({ background: getComputedStyle(el).backgroundColor, text: getComputedStyle(el).color }));
}

const mailCounter = (page: Page, text: string) => page.locator('[data-slot=badge]').getByText(text, { exact: true });

async function expectNoAxeViolation(page: Page, where: string) {
  expect(await blockingAxeViolations(page, where), `axe on ${where}`).toBe('');
}

async function openManagementTab(page: Page, tab: 'tablers' | 'orders' | 'mail') {
  await page.goto(`${server.url}/admin/management?tab=${tab}`);
  await page.getByRole('heading', { name: 'Management Dashboard' }).waitFor();
  // The totals, the charts' code and the tab's rows arrive after the heading and push the tab down (most at 375 px):
  // a click aimed before they are in can land beside its button (a CI run's 'Nieuwe Tabler' opened no dialog).
  await page.waitForLoadState('networkidle');
}

async function setMaintenance(page: Page, on: boolean) {
  expect((await postJson(page, '/api/settings/update', { key: 'maintenance_mode', value: String(on) })).json).toEqual({ success: true });
}

for (const [label, viewport] of [
  ['1280', VIEWPORTS.desktop],
  ['375', VIEWPORTS.phone],
] as const) {
  const phone = viewport === VIEWPORTS.phone;
  const shot = (name: string) => `admin-layout-${name}-${label}.png`;

  describe(`the admin screens at ${label} px`, () => {
    let context: BrowserContext;
    let page: Page;
    let pageErrors: string[];

    beforeAll(async () => {
      ({ context, page, errors: pageErrors } = await openWatchedPage(browser, { viewport }));
      await signIn(page, server.url, 'admin', ADMIN_PASSWORD);
    });

    afterAll(async () => {
      await context?.close();
    });

    it('lines up the content of every admin page with the header, the admin toolbar and the footer', async () => {
      for (const path of ADMIN_PAGES) {
        await page.goto(`${server.url}${path}`);
        const content = page.locator('main [data-slot=page-container]');
        await content.locator('h1').waitFor();
        const header = await boxOf(page.locator('[data-slot=site-header] > div'));
        const columns = [
          ['content', await boxOf(content)],
          ['footer', await boxOf(page.locator('[data-slot=site-footer] > div'))],
          ...(path === '/admin' ? [] : [['toolbar', await boxOf(page.locator('[data-slot=admin-toolbar] > nav'))] as const]),
        ] as const;
        for (const [name, box] of columns) {
          expect({ path, name, left: box.x, right: box.x + box.width }).toEqual({ path, name, left: header.x, right: header.x + header.width });
        }
        // docs/product.md §9: the one content width, 1100 px, on a screen wide enough for it.
        expect(header.width).toBe(phone ? viewport.width : 1100);
        expect(await overflowingElements(page), path).toEqual([]);
      }
    });

    it('shows every column of the orders, the actions included, without scrolling sideways', async () => {
      await openManagementTab(page, 'orders');
      if (phone) {
        // Phones get a card per order, with its actions on the card.
        const cards = page.locator('[data-order-card]');
        await expect.poll(() => cards.count()).toBe(CUSTOMERS.length);
        for (const card of await cards.all()) {
          expect(within(await boxOf(card.getByRole('button', { name: /^Bestelling .+ verwijderen$/ })), { x: 0, width: viewport.width })).toBe(true);
        }
      } else {
        const column = await siteColumn(page);
        const table = page.getByRole('region', { name: 'Bestellingen' });
        await expect.poll(() => table.locator('tr[data-order]').count()).toBe(CUSTOMERS.length);
        const tableBox = await boxOf(table);
        // In the site's column, as wide as the top bar's content, so inside the viewport too.
        expect(tableBox, 'the orders table').toSatisfy((box: Box) => within(box, column));
        // Nothing of the table is scrolled out of its box, so every column is on screen as it is.
        expect(await table.evaluate((el) => el.scrollWidth - el.clientWidth)).toBe(0);
        expect(within(await boxOf(table.getByRole('columnheader', { name: 'Acties' })), tableBox)).toBe(true);
        for (const row of await table.locator('tr[data-order]').all()) {
          for (const action of [/^Bestelling .+ bewerken$/, /^Bestelling .+ verwijderen$/]) {
            expect(within(await boxOf(row.getByRole('button', { name: action })), tableBox), `${action} of ${await row.getAttribute('data-order')}`).toBe(true);
          }
        }
        // The invoiced, unpaid order offers all three actions.
        const johanna = table.locator('tr[data-order]').filter({ hasText: CUSTOMERS[0].name });
        expect(within(await boxOf(johanna.getByRole('button', { name: /^Creditnota maken voor / })), tableBox)).toBe(true);
      }
      expect(await overflowingElements(page)).toEqual([]);
      await expectNoAxeViolation(page, `orders tab at ${label} px`);
      await screenshot(page, shot('orders'), { fullPage: true });
    });

    it('shows every column of the mail, the retry included, without scrolling sideways (cards on a phone)', async () => {
      await server.deps.db.delete(mailOutbox).where(eq(mailOutbox.status, 'failed'));
      await openManagementTab(page, 'mail');
      const count = (await page.evaluate(async () => (await (await fetch('/api/mail')).json()) as { messages: unknown[] })).messages.length;
      expect(count).toBeGreaterThanOrEqual(4);
      if (phone) {
        const cards = page.locator('[data-mail-card]');
        await expect.poll(() => cards.count()).toBe(count);
        expect(await page.locator('tr[data-mail]').first().isVisible()).toBe(false);
        const card = cards.filter({ hasText: 'ECONNREFUSED' });
        for (const text of ['facturen.penningmeester@voorbeeld-bouwbedrijf-harlingen.nl', 'factuur-F2026-0099.pdf', '3 / 8']) {
          expect(await card.textContent()).toContain(text);
        }
        for (const retry of await page.getByRole('button', { name: 'Opnieuw proberen' }).all()) {
          expect(within(await boxOf(retry), { x: 0, width: viewport.width })).toBe(true);
        }
      } else {
        const column = await siteColumn(page);
        const table = page.locator('[data-slot=table-container]', { has: page.locator('tr[data-mail]') });
        await expect.poll(() => table.locator('tr[data-mail]').count()).toBe(count);
        const tableBox = await boxOf(table);
        expect(tableBox, 'the mail table').toSatisfy((box: Box) => within(box, column));
        expect(await table.evaluate((el) => el.scrollWidth - el.clientWidth)).toBe(0);
        for (const name of ['Status', 'Aan', 'Onderwerp', 'Pogingen', 'Volgende poging', 'Aangemaakt', 'Acties']) {
          expect(within(await boxOf(table.getByRole('columnheader', { name, exact: true })), tableBox), name).toBe(true);
        }
        const retries = await table.getByRole('button', { name: 'Opnieuw proberen' }).all();
        expect(retries.length).toBe(count);
        for (const retry of retries) expect(within(await boxOf(retry), tableBox)).toBe(true);
      }
      expect(await overflowingElements(page)).toEqual([]);
      await expectNoAxeViolation(page, `mail tab at ${label} px`);
      await screenshot(page, shot('mail'), { fullPage: true });
    });

    it('shows a mail count of zero in a quiet colour, and only a count above zero in red', async () => {
      await server.deps.db.delete(mailOutbox).where(eq(mailOutbox.status, 'failed'));
      await openManagementTab(page, 'mail');
      const red = await destructiveColours(page);
      const zero = mailCounter(page, 'Mislukt: 0');
      await zero.waitFor();
      const quiet = await coloursOf(zero);
      expect(red).not.toContain(quiet.background);
      expect(red).not.toContain(quiet.text);
      for (const other of ['In wachtrij', 'Bezig', 'Verstuurd']) {
        expect(red).not.toContain((await coloursOf(page.locator('[data-slot=badge]').getByText(new RegExp(`^${other}: \\d+$`)))).background);
      }

      await server.deps.db.insert(mailOutbox).values({
        kind: 'invoice',
        toAddress: 'weg@example.nl',
        subject: 'Factuur F2026-0100',
        textBody: 'Factuur',
        status: 'failed',
        attempts: 8,
        lastError: '550 5.1.1 mailbox unavailable',
        nextAttemptAt: Date.now(),
        createdAt: new Date().toISOString(),
      });
      await page.reload();
      const one = mailCounter(page, 'Mislukt: 1');
      await one.waitFor();
      expect(red).toContain((await coloursOf(one)).background);
      await expectNoAxeViolation(page, `mail counters at ${label} px`);
      await screenshot(page, shot('mail-failed'), { fullPage: true });
    });

    it('pages the mail 50 at a time with the total, newest first', async () => {
      const now = Date.now();
      await server.deps.db.insert(mailOutbox).values(
        Array.from({ length: 120 }, (_, i) => ({
          kind: 'paging',
          toAddress: `klant${i}@example.nl`,
          subject: `Pagineren ${String(i).padStart(3, '0')}`,
          textBody: 'Hallo',
          status: 'sent' as const,
          attempts: 1,
          nextAttemptAt: now,
          createdAt: new Date(now).toISOString(),
          sentAt: new Date(now).toISOString(),
        })),
      );
      try {
        await openManagementTab(page, 'mail');
        const total = ((await page.evaluate(async () => (await fetch('/api/mail')).json())) as { total: number }).total;
        const pages = Math.ceil(total / 50);
        const items = page.locator(phone ? '[data-mail-card]' : 'tr[data-mail]');
        const pager = page.getByRole('navigation', { name: "Pagina's met mailberichten" }).first();
        await expect.poll(() => items.count()).toBe(50);
        expect(await pager.textContent()).toContain(`${total} berichten`);
        expect(await pager.locator('[data-slot=page-status]').textContent()).toBe(`Pagina 1 van ${pages}`);
        expect(await items.first().textContent()).toContain('Pagineren 119');
        expect(await pager.getByRole('button', { name: 'Vorige' }).isDisabled()).toBe(true);

        await pager.getByRole('button', { name: 'Volgende' }).click();
        await expect.poll(() => pager.locator('[data-slot=page-status]').textContent()).toBe(`Pagina 2 van ${pages}`);
        await expect.poll(async () => (await items.first().textContent()) ?? '').toContain('Pagineren 069');
        expect(await overflowingElements(page)).toEqual([]);
        await expectNoAxeViolation(page, `mail pages at ${label} px`);
        await screenshot(page, shot('mail-paged'), { fullPage: !phone });

        // The last page holds the rest, and the pager under the list goes back.
        for (let n = 3; n <= pages; n++) await pager.getByRole('button', { name: 'Volgende' }).click();
        await expect.poll(() => pager.locator('[data-slot=page-status]').textContent()).toBe(`Pagina ${pages} van ${pages}`);
        await expect.poll(() => items.count()).toBe(total - 50 * (pages - 1));
        expect(await pager.getByRole('button', { name: 'Volgende' }).isDisabled()).toBe(true);
      } finally {
        await server.deps.db.delete(mailOutbox).where(eq(mailOutbox.kind, 'paging'));
      }
    });

    it('shows that the admin toolbar scrolls where it does not fit: faded edges and arrows', async () => {
      await page.goto(`${server.url}/admin/users`);
      await page.getByRole('heading', { name: 'User Management' }).waitFor();
      const nav = page.getByRole('navigation', { name: 'Admin', exact: true });
      const strip = nav.locator('ul');
      const hint = (side: 'before' | 'after') => nav.locator(`[data-slot=toolbar-scroll-hint][data-side=${side}]`);
      const mask = () => strip.evaluate((el) => getComputedStyle(el).maskImage);
      if (!phone) {
        // Everything fits at 1280: no fade, no arrow.
        expect(await strip.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
        expect(await hint('after').count()).toBe(0);
        expect(await hint('before').count()).toBe(0);
        expect(await mask()).toBe('none');
        return;
      }
      // At the start: more to the right, shown by the fade and the arrow at that edge.
      await expect.poll(() => nav.getAttribute('data-overflow-after')).toBe('true');
      expect(await nav.getAttribute('data-overflow-before')).toBeNull();
      await hint('after').waitFor();
      expect(await hint('before').count()).toBe(0);
      expect(await mask()).toContain('linear-gradient');
      const arrow = await boxOf(hint('after'));
      expect(arrow.x + arrow.width).toBeLessThanOrEqual(viewport.width);
      await screenshot(page, shot('toolbar-start'), { clip: { x: 0, y: 0, width: viewport.width, height: 150 } });

      // The arrow scrolls on; at the far end only the left edge fades.
      await hint('after').click();
      await expect.poll(() => nav.getAttribute('data-overflow-before')).toBe('true');
      await strip.evaluate((el) => {
        el.scrollLeft = el.scrollWidth;
      });
      await expect.poll(() => nav.getAttribute('data-overflow-after')).toBeNull();
      await hint('before').waitFor();
      expect(await hint('after').count()).toBe(0);
      await screenshot(page, shot('toolbar-end'), { clip: { x: 0, y: 0, width: viewport.width, height: 150 } });
      // The arrows are for a pointer: no tab stop, hidden from screen readers (every link is reachable by Tab).
      expect(await hint('before').getAttribute('tabindex')).toBe('-1');
      expect(await hint('before').getAttribute('aria-hidden')).toBe('true');
      await expectNoAxeViolation(page, `admin toolbar scrolled at ${label} px`);
    });

    it("keeps a dialog's error in the dialog, once, and lets it go with Annuleren", async () => {
      await openManagementTab(page, 'tablers');
      const dialog = page.getByRole('dialog');
      const error = page.getByText(TABLER_CLASH, { exact: true });

      // A new tabler whose name clashes with an existing one, then a rename onto it: both refused.
      for (const [open, heading, name] of [
        [page.getByRole('button', { name: 'Nieuwe Tabler' }), 'Nieuwe Tabler', TABLER.toLowerCase()],
        [page.getByRole('button', { name: `${OTHER_TABLER} bewerken` }), 'Tabler Bewerken', `${TABLER} `],
      ] as const) {
        await open.click();
        await dialog.getByRole('heading', { name: heading }).waitFor();
        await dialog.getByLabel('Naam').fill(name);
        await dialog.getByRole('button', { name: 'Opslaan' }).click();
        await dialog.getByText(TABLER_CLASH, { exact: true }).waitFor();
        expect(await error.count(), `'${TABLER_CLASH}' on the page while ${heading} is open`).toBe(1);
        await animationsDone(dialog);
        await expectNoAxeViolation(page, `${heading} with its error at ${label} px`);
        await screenshot(page, shot(heading === 'Nieuwe Tabler' ? 'tabler-dialog-error' : 'tabler-edit-error'));

        await dialog.getByRole('button', { name: 'Annuleren' }).click();
        await dialog.waitFor({ state: 'detached' });
        expect(await error.count(), `'${TABLER_CLASH}' after Annuleren`).toBe(0);
        expect(await page.getByRole('button', { name: 'Dismiss' }).count()).toBe(0);
      }
      await screenshot(page, shot('tablers-after-cancel'), { fullPage: true });
    });

    it('tells a signed-in admin that maintenance mode is on, on every admin page, with a link to the setting', async () => {
      const banner = page.locator('[data-slot=maintenance-banner]');
      await page.goto(`${server.url}/admin/users`);
      await page.getByRole('heading', { name: 'User Management' }).waitFor();
      expect(await banner.count()).toBe(0);

      await setMaintenance(page, true);
      try {
        for (const path of ADMIN_PAGES) {
          await page.goto(`${server.url}${path}`);
          await page.locator('main [data-slot=page-container] h1').waitFor();
          await banner.waitFor();
          const texts = path === '/admin/management' ? MAINTENANCE_NL : MAINTENANCE_EN;
          expect(await banner.getByText(texts.title, { exact: true }).count(), path).toBe(1);
          expect(await banner.getByText(texts.text, { exact: true }).count(), path).toBe(1);
          const link = banner.getByRole('link', { name: texts.link, exact: true });
          expect(await link.getAttribute('href'), path).toBe(SETTING_LINK);
          // In the page's column, like everything else on it.
          const column = await boxOf(page.locator('[data-slot=site-header] > div'));
          expect(within(await boxOf(banner.locator('[data-slot=maintenance-banner-text]')), column), path).toBe(true);
          expect(await overflowingElements(page), path).toEqual([]);
        }
        await page.goto(`${server.url}/admin/users`);
        await banner.waitFor();
        await expectNoAxeViolation(page, `maintenance banner at ${label} px`);
        await screenshot(page, shot('maintenance-banner'));

        // The link leads to the setting itself, scrolled into view and focused.
        await banner.getByRole('link', { name: MAINTENANCE_EN.link }).click();
        await page.waitForURL(`${server.url}${SETTING_LINK}`);
        const row = page.locator('[data-slot=setting-row][data-setting-key=maintenance_mode]');
        await expect.poll(() => row.evaluate((el) => el === document.activeElement)).toBe(true);
        const rowBox = await boxOf(row);
        expect(rowBox.y).toBeGreaterThanOrEqual(0);
        expect(rowBox.y + rowBox.height).toBeLessThanOrEqual(viewport.height);
        await expectNoAxeViolation(page, `the maintenance_mode setting, reached from the banner, at ${label} px`);
        await screenshot(page, shot('maintenance-setting'));

        // Turned off there, the banner goes at once.
        await row.getByRole('switch', { name: 'Value of maintenance_mode' }).click();
        await row.getByRole('button', { name: 'Save maintenance_mode' }).click();
        await expect.poll(() => row.getAttribute('data-state')).toBe('saved');
        await expect.poll(() => banner.count()).toBe(0);
      } finally {
        await setMaintenance(page, false);
      }
      expect(pageErrors).toEqual([]);
    });
  });
}
