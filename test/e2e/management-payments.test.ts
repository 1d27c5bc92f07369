import { encodeHexLowerCase } from '@oslojs/encoding';
import { eq } from 'drizzle-orm';
import type { Browser, BrowserContext, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onlinePayments, orders, providerKeyRefusals, settings } from '../../src/db/schema';
import { keyedDigest } from '../../src/platform/crypto';
import { blockingAxeViolations } from './axe';
import { launchChromium, startTestServer, VIEWPORTS, signIn as signInAs, screenshot } from './browser';

/**
 * docs/decisions/019, 024–026, dashboard part: the Management dashboard's invoice-readiness banner, the treasurer
 * (management.access without admin.access, group 'Penningmeesters'), totals from the server, the
 * charts (only in the admin chunk), the Betalingen tab reading a CAMT.053 statement, and the
 * geocoder_provider select on the settings page — in Chromium against the real Node server (no SMTP
 * configured, so the invoice waits in the outbox).
 */

let browser: Browser;
let server: Awaited<ReturnType<typeof startTestServer>>;

const ADMIN_PASSWORD = 'e2e-admin-password';
const TREASURER = { username: 'penning', email: 'penning@example.nl', password: 'Kerst-Penning-2026!' };
const TABLER = 'Tabler Harlingen';
const BOOKED_AT = '2026-12-03';

const euro = (amount: number) => new Intl.NumberFormat('nl-NL', { style: 'currency', currency: 'EUR' }).format(amount);
/** Text with every kind of space (Intl puts a no-break space after '€') as one plain space. */
const plain = (text: string | null) => (text ?? '').replace(/\s+/g, ' ').trim();

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

function signIn(page: Page, username: string, password: string) {
  return signInAs(page, server.url, username, password);
}

/** A call of the REST surface from inside the page: same origin, with the page's session cookie. */
async function api<T = Record<string, unknown>>(page: Page, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  return page.evaluate(
    async ({ path, body }) => {
      const init: RequestInit = body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
      const response = await fetch(path, init);
      return { status: response.status, body: await response.json().catch(() => null) };
    },
    { path, body },
  );
}

const banner = (page: Page) => page.locator('[data-slot=readiness-banner]');
const stat = (page: Page, name: string) => page.locator(`[data-stat="${name}"] [data-slot=stat-value]`);
const snackbar = (page: Page) => page.locator('[data-slot=snackbar]');
const settingRow = (page: Page, key: string) => page.locator(`[data-slot=setting-row][data-setting-key="${key}"]`);
const entryRow = (page: Page, status: string) => page.locator(`[data-slot=payments-preview] tr[data-status="${status}"]`);

async function openDashboard(page: Page) {
  await page.goto(`${server.url}/admin/management`);
  await page.getByRole('heading', { name: 'Management Dashboard' }).waitFor();
  await stat(page, 'orders').waitFor();
}

async function expectAxeClean(page: Page, where: string) {
  // Not over a button: axe would measure its hover colour, not the one the page shows.
  await page.mouse.move(0, 0);
  const found = await blockingAxeViolations(page, where);
  expect(found).toBe('');
}

async function saveSetting(page: Page, key: string, value: string) {
  const row = settingRow(page, key);
  await row.getByLabel(`Value of ${key}`).fill(value);
  await row.getByRole('button', { name: `Save ${key}` }).click();
  await expect.poll(() => row.getAttribute('data-state')).toBe('saved');
}

async function storedSetting(key: string): Promise<string | undefined> {
  const [row] = await server.deps.db.select().from(settings).where(eq(settings.key, key));
  return row?.value;
}

type Credit = { ref: string; amount: string; payer: string; remittance: string };

/** A small camt.053.001.02 statement of the club's account with the given incoming transfers. */
function camt053(credits: Credit[]): string {
  const entries = credits
    .map(
      (c) => `
      <Ntry>
        <Amt Ccy="EUR">${c.amount}</Amt>
        <CdtDbtInd>CRDT</CdtDbtInd>
        <Sts>BOOK</Sts>
        <BookgDt><Dt>${BOOKED_AT}</Dt></BookgDt>
        <ValDt><Dt>${BOOKED_AT}</Dt></ValDt>
        <AcctSvcrRef>${c.ref}</AcctSvcrRef>
        <NtryDtls>
          <TxDtls>
            <Refs><EndToEndId>NOTPROVIDED</EndToEndId></Refs>
            <RltdPties>
              <Dbtr><Nm>${c.payer}</Nm></Dbtr>
              <DbtrAcct><Id><IBAN>NL18ABNA0484869868</IBAN></Id></DbtrAcct>
            </RltdPties>
            <RmtInf><Ustrd>${c.remittance}</Ustrd></RmtInf>
          </TxDtls>
        </NtryDtls>
      </Ntry>`,
    )
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02">
  <BkToCstmrStmt>
    <GrpHdr><MsgId>E2E-${BOOKED_AT}</MsgId><CreDtTm>${BOOKED_AT}T18:00:00</CreDtTm></GrpHdr>
    <Stmt>
      <Id>E2E-STMT-1</Id>
      <CreDtTm>${BOOKED_AT}T18:00:00</CreDtTm>
      <Acct><Id><IBAN>NL91ABNA0417164300</IBAN></Id><Ccy>EUR</Ccy></Acct>${entries}
    </Stmt>
  </BkToCstmrStmt>
</Document>
`;
}

async function readStatement(page: Page, xml: string, name = 'afschrift.xml') {
  await page.getByLabel('Bankafschrift (CAMT.053)').setInputFiles({ name, mimeType: 'application/xml', buffer: Buffer.from(xml) });
  await page.getByRole('button', { name: 'Inlezen' }).click();
}

describe('the Management dashboard for admins and treasurers in Chromium', () => {
  let adminContext: BrowserContext;
  let admin: Page;
  let treasurerContext: BrowserContext;
  let treasurer: Page;
  const pageErrors: string[] = [];
  /** The invoiced order the statement pays, and the one it names with a wrong amount. */
  const invoiced = { id: 0, reference: '', invoiceNumber: '', totalIncl: 0 };
  const notInvoiced = { reference: '' };

  beforeAll(async () => {
    adminContext = await browser.newContext({ viewport: VIEWPORTS.desktop });
    admin = await adminContext.newPage();
    admin.on('pageerror', (error) => pageErrors.push(error.message));
    await signIn(admin, 'admin', ADMIN_PASSWORD);
  });

  afterAll(async () => {
    await adminContext?.close();
    await treasurerContext?.close();
  });

  it('warns an admin while the club IBAN, KvK number and VAT id are placeholders, with a link to the settings', async () => {
    await openDashboard(admin);
    await banner(admin).waitFor();
    expect(await banner(admin).getByText('Facturen kunnen nog niet worden verstuurd').count()).toBe(1);
    expect(await banner(admin).locator('li').allTextContents()).toEqual([
      'Vul eerst het IBAN van de club in (instelling club_iban): er staat nog een voorbeeldwaarde.',
      'Vul eerst het KvK-nummer van de club in (instelling club_kvk_number): er staat nog een voorbeeldwaarde.',
      'Vul eerst het btw-nummer van de club in (instelling club_vat_id): er staat nog een voorbeeldwaarde.',
    ]);
    expect(await banner(admin).getByRole('link', { name: 'Naar de instellingen' }).getAttribute('href')).toBe('/admin/settings');
    // An empty campaign: nl-NL zeros, and the tabs with the new Betalingen.
    expect(await stat(admin, 'orders').textContent()).toBe('0');
    expect(plain(await stat(admin, 'revenue').textContent())).toBe('€ 0,00');
    for (const name of ['Tablers', 'Bestellingen', 'Betalingen', 'Mail']) await admin.getByRole('tab', { name }).waitFor();
    await screenshot(admin, 'management-readiness-banner-desktop.png', { fullPage: true });
    await expectAxeClean(admin, 'management dashboard with the readiness banner, 1280');
  });

  it('lets a treasurer in the Penningmeesters group open only the Management dashboard', async () => {
    expect((await api(admin, '/api/settings/update', { key: 'allow_registration', value: 'true' })).status).toBe(200);
    treasurerContext = await browser.newContext({ viewport: VIEWPORTS.desktop });
    treasurer = await treasurerContext.newPage();
    treasurer.on('pageerror', (error) => pageErrors.push(error.message));
    await treasurer.goto(`${server.url}/login`);
    const registered = await api<{ success: boolean }>(treasurer, '/api/account/register', TREASURER);
    expect(registered.body.success).toBe(true);

    // Before joining the group they have no way into the admin area.
    await treasurer.goto(`${server.url}/`);
    await treasurer.getByRole('link', { name: 'Account settings' }).waitFor();
    expect(await treasurer.getByRole('link', { name: 'Admin', exact: true }).count()).toBe(0);
    await treasurer.goto(`${server.url}/admin/management`);
    await treasurer.waitForURL(`${server.url}/`);

    const groups = await api<{ groups: { id: number; name: string }[] }>(admin, '/api/groups');
    const group = groups.body.groups.find((g) => g.name === 'Penningmeesters');
    const users = await api<{ users: { id: number; username: string }[] }>(admin, '/api/users');
    const user = users.body.users.find((u) => u.username === TREASURER.username);
    expect(group && user).toBeTruthy();
    const assigned = await api(admin, '/api/users/assigngroup', { user_id: user!.id, group_id: group!.id });
    expect(assigned.status).toBe(200);

    await treasurer.goto(`${server.url}/`);
    await treasurer.getByRole('link', { name: 'Admin', exact: true }).click();
    await treasurer.waitForURL(`${server.url}/admin`);
    const tiles = treasurer.locator('[data-slot=admin-tile]');
    await tiles.first().waitFor();
    expect(await tiles.count()).toBe(1);
    expect(await tiles.first().textContent()).toContain('Management');
    for (const name of ['Users', 'Settings', 'Groups']) expect(await treasurer.getByRole('link', { name: new RegExp(`^${name}`) }).count()).toBe(0);

    // Any other admin page sends them back to their tiles.
    for (const path of ['/admin/users', '/admin/settings', '/admin/audit']) {
      await treasurer.goto(`${server.url}${path}`);
      await treasurer.waitForURL(`${server.url}/admin`);
      await tiles.first().waitFor();
    }

    await tiles.first().click();
    await treasurer.getByRole('heading', { name: 'Management Dashboard' }).waitFor();
    const toolbar = treasurer.getByRole('navigation', { name: 'Admin' });
    expect(await toolbar.getByRole('link').allTextContents()).toEqual(['Admin Home', 'Management']);
    // The banner tells them whom to ask; the settings page is not theirs.
    await banner(treasurer).waitFor();
    expect(await banner(treasurer).getByText('Vraag een beheerder om deze instellingen in te vullen.').count()).toBe(1);
    expect(await banner(treasurer).getByRole('link').count()).toBe(0);
    await screenshot(treasurer, 'management-treasurer-desktop.png', { fullPage: true });
  });

  it("shows the server's refusal of a VAT split that does not add up, then saves the club's details", async () => {
    await openDashboard(admin);
    await banner(admin).getByRole('link', { name: 'Naar de instellingen' }).click();
    await admin.getByRole('heading', { name: 'Settings Management' }).waitFor();

    const vat = settingRow(admin, 'vat_split');
    await vat.getByLabel('Value of vat_split').fill('[{"label":"Pakket","share_percent":50,"vat_rate":9}]');
    await vat.getByRole('button', { name: 'Save vat_split' }).click();
    await expect.poll(() => vat.getAttribute('data-state')).toBe('error');
    expect(plain(await vat.locator('[data-slot=setting-status]').textContent())).toBe('The shares of the VAT split must add up to 100 (now 50).');
    await expect.poll(() => snackbar(admin).textContent()).toContain('Failed to save setting vat_split');

    // An IBAN whose check digits are wrong is refused the same way.
    const iban = settingRow(admin, 'club_iban');
    await iban.getByLabel('Value of club_iban').fill('NL92ABNA0417164300');
    await iban.getByRole('button', { name: 'Save club_iban' }).click();
    await expect.poll(() => iban.getAttribute('data-state')).toBe('error');
    expect(plain(await iban.locator('[data-slot=setting-status]').textContent())).toBe(
      'Value must be a valid IBAN (e.g. NL91ABNA0417164300): the check digits do not match.',
    );

    await saveSetting(admin, 'club_iban', 'NL91ABNA0417164300');
    await saveSetting(admin, 'club_kvk_number', '12345678');
    await saveSetting(admin, 'club_vat_id', 'NL123456789B01');
    expect(await storedSetting('club_iban')).toBe('NL91ABNA0417164300');
  });

  it('edits geocoder_provider as a select of its choices, inline and in the edit dialog', async () => {
    const row = settingRow(admin, 'geocoder_provider');
    const select = row.getByRole('combobox', { name: 'Value of geocoder_provider' });
    expect(plain(await select.textContent())).toBe('pdok');
    await select.click();
    expect(await admin.getByRole('option').allTextContents()).toEqual(['pdok', 'nominatim']);
    await admin.getByRole('option', { name: 'nominatim', exact: true }).click();
    await expect.poll(() => row.getAttribute('data-state')).toBe('edited');
    await row.getByRole('button', { name: 'Save geocoder_provider' }).click();
    await expect.poll(() => row.getAttribute('data-state')).toBe('saved');
    expect(await storedSetting('geocoder_provider')).toBe('nominatim');

    await row.getByRole('button', { name: 'Edit geocoder_provider' }).click();
    const dialog = admin.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'Edit Setting' }).waitFor();
    const value = dialog.getByRole('combobox', { name: 'Value' });
    expect(plain(await value.textContent())).toBe('nominatim');
    await value.click();
    await admin.getByRole('option', { name: 'pdok', exact: true }).click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => storedSetting('geocoder_provider')).toBe('pdok');
    await screenshot(admin, 'management-settings-geocoder-desktop.png', { fullPage: false });
  });

  it('drops the banner once the settings are valid', async () => {
    await admin.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Management' }).click();
    await admin.getByRole('heading', { name: 'Management Dashboard' }).waitFor();
    await expect.poll(() => banner(admin).count()).toBe(0);
    await treasurer.reload();
    await stat(treasurer, 'orders').waitFor();
    await expect.poll(() => banner(treasurer).count()).toBe(0);
  });

  it('counts an invoiced order in the totals, with nl-NL numbers and amounts', async () => {
    const tabler = await api<{ success: boolean; tabler: { id: number } }>(admin, '/tablers/create', { name: TABLER });
    const order = {
      tabler_id: tabler.body.tabler.id,
      phone: '0517 123456',
      address: 'Voorstraat 1',
      postal_code: '8861 BA',
      city: 'Harlingen',
    };
    expect((await api(admin, '/orders/create', { ...order, name: 'Piet Pietersen', email: 'piet@example.nl', amount: 2 })).status).toBe(200);
    expect((await api(admin, '/orders/create', { ...order, name: 'Jan Jansen', email: 'jan@example.nl', amount: 3 })).status).toBe(200);
    type ApiOrder = { id: number; name: string; reference: string; invoice_number: string | null; paid: boolean; paid_at: string | null };
    const before = await api<ApiOrder[]>(admin, '/orders');
    const piet = before.body.find((o) => o.name === 'Piet Pietersen')!;
    notInvoiced.reference = before.body.find((o) => o.name === 'Jan Jansen')!.reference;
    const sent = await api(admin, `/orders/sendInvoice?id=${piet.id}`, {});
    expect(sent.status).toBe(200);
    const after = await api<ApiOrder[]>(admin, '/orders');
    const invoicedPiet = after.body.find((o) => o.id === piet.id)!;
    const totals = await api<{ revenue_incl: number; open: { amount_incl: number } }>(admin, '/orders/totals');
    Object.assign(invoiced, { id: piet.id, reference: piet.reference, invoiceNumber: invoicedPiet.invoice_number });
    expect(invoiced.invoiceNumber).toMatch(/^F\d{4}-0001$/);

    // The server's sums, as the dashboard shows them.
    await treasurer.reload();
    await expect.poll(() => stat(treasurer, 'orders').textContent()).toBe('2');
    expect(plain(await treasurer.locator('[data-stat=orders]').textContent())).toContain('5 pakketten');
    expect(plain(await stat(treasurer, 'revenue').textContent())).toBe('€ 375,00');
    expect(plain(await treasurer.locator('[data-stat=revenue]').textContent())).toContain(`Incl. btw: ${plain(euro(totals.body.revenue_incl))}`);
    expect(await stat(treasurer, 'paid').textContent()).toBe('0 / 2');
    expect(await stat(treasurer, 'invoices').textContent()).toBe('0');
    expect(plain(await treasurer.locator('[data-slot=paid-amounts]').textContent())).toBe(
      `€ 0,00 ontvangen · ${plain(euro(totals.body.open.amount_incl))} open (incl. btw)`,
    );
    expect(plain(await treasurer.locator('[data-slot=per-tabler]').textContent())).toContain(`${TABLER}: 5 pakketten (2 best.)`);
    // The leaderboard's money is the totals' (both orders are this tabler's), nothing of it paid yet.
    expect(plain(await treasurer.locator('[data-slot=per-tabler-amounts]').textContent())).toBe(
      `${plain(euro(totals.body.revenue_incl))} incl. btw · € 0,00 betaald`,
    );
    // What the invoice billed incl. VAT: the amount the payer transfers.
    const [stored] = await server.deps.db.select({ cents: orders.invoiceTotalCents }).from(orders).where(eq(orders.id, piet.id));
    invoiced.totalIncl = stored!.cents! / 100;
  });

  it('draws the three charts from the totals, each with a title and a table of its numbers', async () => {
    const figures = treasurer.locator('[data-slot=campaign-charts] figure[data-chart]');
    await expect.poll(() => figures.count()).toBe(3);
    for (const id of ['per-day', 'money', 'per-tabler']) {
      await treasurer.locator(`figure[data-chart="${id}"] svg.recharts-surface`).first().waitFor();
    }
    expect(await figures.locator('h3').allTextContents()).toEqual([
      'Bestellingen en pakketten per dag',
      'Gefactureerd en ontvangen (cumulatief, incl. btw)',
      'Pakketten per tabler',
    ]);
    const perTabler = treasurer.locator('figure[data-chart="per-tabler"]');
    expect(await perTabler.locator('[role=img]').getAttribute('aria-label')).toBe('Grafiek: Pakketten per tabler. De cijfers staan in de tabel hieronder.');
    await perTabler.getByText('Toon als tabel').click();
    expect(await perTabler.locator('tbody tr').first().locator('td').allTextContents()).toEqual([TABLER, '5', '2']);
    const perDay = treasurer.locator('figure[data-chart="per-day"]');
    await perDay.getByText('Toon als tabel').click();
    // The day in nl-NL words, e.g. 'wo 2 december 2026'.
    expect(plain(await perDay.locator('tbody tr').first().locator('td').first().textContent())).toMatch(/^[a-z]{2} \d{1,2} [a-z]+ \d{4}$/);
  });

  it('reads a CAMT.053 statement in the Betalingen tab, previews it and marks the matched order paid', async () => {
    await treasurer.getByRole('tab', { name: 'Betalingen' }).click();
    const read = treasurer.getByRole('button', { name: 'Inlezen' });
    expect(await read.isDisabled()).toBe(true);
    const statement = camt053([
      { ref: 'E2E-0001', amount: invoiced.totalIncl.toFixed(2), payer: 'P. Pietersen', remittance: `Kerstpakketten ${invoiced.invoiceNumber}` },
      { ref: 'E2E-0002', amount: '10.00', payer: 'J. Jansen', remittance: `Bestelling ${notInvoiced.reference}` },
      { ref: 'E2E-0003', amount: '25.00', payer: 'Anoniem', remittance: 'Gift voor het goede doel' },
    ]);
    await readStatement(treasurer, statement);
    const preview = treasurer.locator('[data-slot=payments-preview]');
    await preview.waitFor();
    expect(plain(await preview.getByRole('heading').first().textContent())).toBe('Voorbeeld: 3 boekingen');
    expect((await treasurer.locator('[data-slot=payment-counts] li').allTextContents()).map(plain)).toEqual([
      'Gevonden: 1',
      'Bedrag wijkt af: 1',
      'Niet gevonden: 1',
      'Al verwerkt: 0',
    ]);
    const matched = entryRow(treasurer, 'matched');
    expect((await matched.locator('td').allTextContents()).map(plain)).toEqual([
      '3 dec 2026',
      plain(euro(invoiced.totalIncl)),
      'P. Pietersen',
      `Kerstpakketten ${invoiced.invoiceNumber}`,
      invoiced.reference,
      'Gevonden',
    ]);
    expect(plain(await entryRow(treasurer, 'amount_mismatch').locator('[data-slot=payment-status]').textContent())).toBe('Bedrag wijkt af');
    expect(plain(await entryRow(treasurer, 'unmatched').locator('[data-slot=payment-status]').textContent())).toBe('Niet gevonden');
    await screenshot(treasurer, 'management-payments-preview-desktop.png', { fullPage: true });
    await expectAxeClean(treasurer, 'payments preview, 1280');

    // Reading in changed nothing yet.
    expect(await stat(treasurer, 'paid').textContent()).toBe('0 / 2');
    await treasurer.getByRole('button', { name: 'Verwerken' }).click();
    await expect.poll(() => snackbar(treasurer).textContent()).toContain('1 bestelling als betaald gemarkeerd.');
    await expect.poll(() => stat(treasurer, 'paid').textContent()).toBe('1 / 1');
    expect(plain(await treasurer.locator('[data-slot=paid-amounts]').textContent())).toContain(`${plain(euro(invoiced.totalIncl))} ontvangen`);
    const orders = await api<{ id: number; paid: boolean; paid_at: string | null }[]>(treasurer, '/orders');
    const paid = orders.body.find((o) => o.id === invoiced.id)!;
    expect(paid.paid).toBe(true);
    expect(paid.paid_at?.slice(0, 10)).toBe(BOOKED_AT);
    expect(await preview.count()).toBe(0);

    // The same statement again: the booking is already processed and nothing can be confirmed twice.
    await readStatement(treasurer, statement);
    await preview.waitFor();
    expect(plain(await entryRow(treasurer, 'already_imported').locator('[data-slot=payment-status]').textContent())).toBe('Al verwerkt');
    expect(await treasurer.getByRole('button', { name: 'Verwerken' }).isDisabled()).toBe(true);
  });

  it('keeps the differing and the unmatched payment under Af te handelen, books a part-payment, dismisses a gift and lists the import (375 and 1280 px)', async () => {
    const followUps = treasurer.locator('[data-slot=payments-follow-ups]');
    const card = (ref: string) => followUps.locator(`[data-slot=follow-up][data-entry="${ref}"]`);
    await card('E2E-0002').waitFor();
    expect(plain(await followUps.getByRole('heading').first().textContent())).toBe('Af te handelen (2)');
    const jan = await api<{ order: { reference: string; amount_incl: number } }>(treasurer, `/api/payments/order?reference=${notInvoiced.reference}`);
    const total = jan.body.order.amount_incl;
    expect(plain(await card('E2E-0002').locator('[data-slot=payment-status]').textContent())).toBe('Bedrag wijkt af');
    expect(plain(await card('E2E-0002').locator('[data-slot=order-balance]').textContent())).toBe(
      `totaal ${plain(euro(total))} · betaald € 0,00 · nog open ${plain(euro(total))}`,
    );
    expect(plain(await card('E2E-0003').locator('[data-slot=follow-up-order]').textContent())).toBe('Niet gevonden');
    await screenshot(treasurer, 'management-payments-follow-ups-desktop.png', { fullPage: true });
    await expectAxeClean(treasurer, 'payments follow-ups and history, 1280');

    // On a phone: the cards fit, and the differing payment is booked as a part-payment on the order it names.
    await treasurer.setViewportSize(VIEWPORTS.phone);
    await card('E2E-0002').scrollIntoViewIfNeeded();
    expect(await treasurer.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await screenshot(followUps, 'management-payments-follow-ups-phone.png');
    await screenshot(treasurer.locator('[data-slot=payments-history]'), 'management-payments-history-phone.png');
    await card('E2E-0002')
      .getByRole('button', { name: /^Afhandelen/ })
      .click();
    const dialog = treasurer.getByRole('dialog', { name: 'Betaling afhandelen' });
    await dialog.waitFor();
    expect(await dialog.getByRole('radio', { name: /Boeken als deelbetaling/ }).isChecked()).toBe(true);
    expect(await dialog.getByRole('textbox', { name: 'Bestelling', exact: true }).inputValue()).toBe(notInvoiced.reference);
    await expect
      .poll(async () => plain(await dialog.locator('[data-slot=order-after]').textContent()))
      .toBe(`Daarna: betaald € 10,00 · nog open ${plain(euro(total - 10))}`);
    await screenshot(treasurer, 'management-payments-resolve-phone.png');
    await expectAxeClean(treasurer, 'resolve dialog, 375');
    await dialog.getByRole('button', { name: 'Boeken' }).click();
    await expect.poll(() => snackbar(treasurer).textContent()).toContain(`geboekt op ${notInvoiced.reference}`);
    expect(plain(await snackbar(treasurer).textContent())).toContain(
      `Deelbetaling van € 10,00 geboekt op ${notInvoiced.reference}: nog open ${plain(euro(total - 10))}.`,
    );
    const after = await api<{ order: { paid_amount: number; open_amount: number; paid: boolean } }>(
      treasurer,
      `/api/payments/order?reference=${notInvoiced.reference}`,
    );
    expect(after.body.order).toMatchObject({ paid_amount: 10, open_amount: Math.round((total - 10) * 100) / 100, paid: false });
    await treasurer.setViewportSize(VIEWPORTS.desktop);

    // A new page load (as after signing in again) still shows what is left: the gift, which is dismissed with a reason.
    await treasurer.reload();
    await treasurer.getByRole('tab', { name: 'Betalingen' }).click();
    await card('E2E-0003').waitFor();
    expect(await followUps.locator('[data-slot=follow-up]').count()).toBe(1);
    await card('E2E-0003')
      .getByRole('button', { name: /^Afhandelen/ })
      .click();
    await dialog.waitFor();
    // Nothing named: dismissing is offered first, and needs a reason.
    expect(await dialog.getByRole('radio', { name: /Negeren/ }).isChecked()).toBe(true);
    expect(await dialog.getByRole('button', { name: 'Negeren' }).isDisabled()).toBe(true);
    await dialog.getByLabel('Reden').fill('Gift voor het goede doel');
    await dialog.getByRole('button', { name: 'Negeren' }).click();
    await expect.poll(() => snackbar(treasurer).textContent()).toContain('Betaling genegeerd.');
    await followUps.locator('[data-slot=follow-ups-empty]').waitFor();
    expect(plain(await followUps.getByRole('heading').first().textContent())).toBe('Af te handelen (0)');

    // The history: the processed statement, and the same file read in again (not processed), newest first.
    const history = treasurer.locator('[data-slot=payments-history] [data-slot=payment-import]');
    await expect.poll(() => history.count()).toBe(2);
    const processed = history.nth(1);
    expect(plain(await processed.textContent())).toContain('Afschrift E2E-STMT-1');
    expect((await processed.locator('[data-slot=import-counts] li').allTextContents()).map(plain)).toEqual([
      'Geboekt: 2',
      'Bedrag wijkt af: 1',
      'Niet gevonden: 1',
    ]);
    await processed.getByRole('button', { name: /^Bekijken/ }).click();
    const detail = treasurer.getByRole('dialog', { name: 'Bankafschrift afschrift.xml' });
    await detail.locator('[data-slot=payment-import-detail] tbody tr').first().waitFor();
    const outcome = (ref: string) => detail.locator(`tr[data-entry="${ref}"] [data-slot=entry-outcome]`);
    expect(plain(await outcome('E2E-0001').textContent())).toBe('Geboekt');
    expect(plain(await outcome('E2E-0002').textContent())).toBe('Deelbetaling geboekt');
    expect(plain(await outcome('E2E-0003').textContent())).toBe('Genegeerd: Gift voor het goede doel');
    expect(plain(await detail.locator('tr[data-entry="E2E-0003"]').textContent())).toContain('door penning');
    await screenshot(treasurer, 'management-payments-import-detail-desktop.png');
    await expectAxeClean(treasurer, 'import detail, 1280');
    await treasurer.setViewportSize(VIEWPORTS.phone);
    // A phone lists each line as a card, what became of it in view.
    await detail.locator('[data-entry-card="E2E-0003"]').waitFor();
    expect(plain(await detail.locator('[data-entry-card="E2E-0003"]').textContent())).toContain('Genegeerd: Gift voor het goede doel (door penning)');
    await screenshot(treasurer, 'management-payments-import-detail-phone.png');
    await expectAxeClean(treasurer, 'import detail, 375');
    expect(await treasurer.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await treasurer.keyboard.press('Escape');
    await detail.waitFor({ state: 'detached' });
    await treasurer.setViewportSize(VIEWPORTS.desktop);
  });

  it("shows a part-paid order's part-payment in its row and card, its dialog and the totals (1280 and 375 px)", async () => {
    // The € 10 booked above on the order not invoiced yet; the rest is still open.
    const jan = await api<{ order: { amount_incl: number } }>(treasurer, `/api/payments/order?reference=${notInvoiced.reference}`);
    const open = Math.round((jan.body.order.amount_incl - 10) * 100) / 100;
    await treasurer.getByRole('tab', { name: 'Bestellingen' }).click();
    const row = treasurer.locator(`tr[data-order="${notInvoiced.reference}"]`);
    await row.locator('[data-slot=part-paid]').waitFor();
    expect(plain(await row.locator('[data-slot=part-paid]').textContent())).toBe('Deels betaald: € 10,00');
    expect(await row.getByRole('switch', { name: `Betaald ${notInvoiced.reference}` }).isChecked()).toBe(false);
    // The order paid in full says when, not how much.
    expect(await treasurer.locator(`tr[data-order="${invoiced.reference}"] [data-slot=part-paid]`).count()).toBe(0);
    expect(plain(await treasurer.locator('[data-slot=paid-amounts]').textContent())).toBe(
      `${plain(euro(invoiced.totalIncl + 10))} ontvangen · ${plain(euro(open))} open (incl. btw)`,
    );
    expect(plain(await treasurer.locator('[data-slot=part-paid-amounts]').textContent())).toBe('Deels betaald: 1 bestelling (€ 10,00 ontvangen)');
    await row.scrollIntoViewIfNeeded();
    await screenshot(treasurer, 'management-part-paid-row-desktop.png');
    await expectAxeClean(treasurer, 'orders with a part-paid order, 1280');

    await row.getByRole('button', { name: `Bestelling ${notInvoiced.reference} bewerken` }).click();
    const dialog = treasurer.getByRole('dialog', { name: 'Bestelling Bewerken' });
    await dialog.locator('[data-slot=order-balance]').waitFor();
    expect(plain(await dialog.locator('[data-slot=order-balance]').textContent())).toBe(`Betaald tot nu: € 10,00 · Nog open: ${plain(euro(open))}`);
    expect((await dialog.locator('[data-slot=order-booking]').allTextContents()).map(plain)).toEqual(['3 dec 2026 · € 10,00 · Deelbetaling · J. Jansen']);
    await screenshot(treasurer, 'management-part-paid-dialog-desktop.png');
    await expectAxeClean(treasurer, 'order dialog of a part-paid order, 1280');
    await dialog.getByRole('button', { name: 'Annuleren' }).click();
    await dialog.waitFor({ state: 'detached' });

    await treasurer.setViewportSize(VIEWPORTS.phone);
    const card = treasurer.locator(`[data-order-card="${notInvoiced.reference}"]`);
    await card.scrollIntoViewIfNeeded();
    expect(plain(await card.locator('[data-slot=part-paid]').textContent())).toBe('Deels betaald: € 10,00');
    expect(await treasurer.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await screenshot(card, 'management-part-paid-card-phone.png');
    await expectAxeClean(treasurer, 'orders with a part-paid order, 375');
    await treasurer.setViewportSize(VIEWPORTS.desktop);
    await treasurer.getByRole('tab', { name: 'Betalingen' }).click();
  });

  it("shows the server's Dutch refusal of a file that is not a CAMT.053 statement", async () => {
    const notCamt = '<?xml version="1.0"?><Invoice><Id>1</Id></Invoice>';
    const answer = await treasurer.evaluate(async (text) => {
      const form = new FormData();
      form.append('file', new Blob([text], { type: 'application/xml' }), 'factuur.xml');
      const response = await fetch('/api/payments/import', { method: 'POST', body: form });
      return { status: response.status, body: (await response.json()) as { success: boolean; error: string } };
    }, notCamt);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatch(/CAMT\.053/);
    await readStatement(treasurer, notCamt, 'factuur.xml');
    const error = treasurer.locator('[data-slot=payments-error]');
    await error.waitFor();
    expect(plain(await error.textContent())).toBe(plain(answer.body.error));
    expect(await treasurer.locator('[data-slot=payments-preview]').count()).toBe(0);
  });

  it('fits a phone screen and stays axe-clean there', async () => {
    await treasurer.setViewportSize(VIEWPORTS.phone);
    await readStatement(
      treasurer,
      camt053([{ ref: 'E2E-0009', amount: '25.00', payer: 'Anoniem', remittance: 'Gift voor het goede doel' }]),
      'afschrift-2.xml',
    );
    await treasurer.locator('[data-slot=payments-preview]').waitFor();
    await screenshot(treasurer, 'management-payments-phone.png', { fullPage: true });
    expect(await treasurer.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await expectAxeClean(treasurer, 'payments preview, 375');
    await treasurer.evaluate(() => window.scrollTo(0, 0));
    await treasurer.locator('figure[data-chart="money"] svg.recharts-surface').first().waitFor();
    await expectAxeClean(treasurer, 'management dashboard, 375');
    await treasurer.setViewportSize(VIEWPORTS.desktop);
    await screenshot(treasurer, 'management-dashboard-desktop.png', { fullPage: true });
    await expectAxeClean(treasurer, 'management dashboard, 1280');
  });

  it('lists online payments with their Dutch states and a double payment to refund, shows an order paid online with its refund dialog, and warns the admin of a refused Mollie key', async () => {
    // Seeded as Mollie's webhook would leave them (no Mollie here): an order paid online with € 10,25 refunded,
    // a payment that expired, and a double payment on the order the bank statement paid.
    const created = await api<{ order_reference: string }>(admin, '/orders/create', {
      tabler_id: (await api<{ id: number }[]>(admin, '/tablers')).body[0]!.id,
      name: 'Klaas Online',
      email: 'klaas@example.nl',
      phone: '0517 654321',
      address: 'Noorderhaven 2',
      postal_code: '8861 AL',
      city: 'Harlingen',
      amount: 1,
    });
    const online = created.body.order_reference;
    const total = (await api<{ order: { order_id: number; amount_incl: number } }>(admin, `/api/payments/order?reference=${online}`)).body.order;
    const at = (minute: number) => `2026-12-04T09:${String(minute).padStart(2, '0')}:00.000Z`;
    await server.deps.db
      .update(orders)
      .set({ paid: true, paidAt: at(11), paymentMethod: 'online', refundedCents: 1025 })
      .where(eq(orders.id, total.order_id));
    const row = (providerId: string, orderId: number, reference: string, cents: number, minute: number) => ({
      providerId,
      orderId,
      reference,
      status: 'paid',
      amountCents: cents,
      paidAt: at(minute + 1),
      createdAt: at(minute),
      updatedAt: at(minute + 1),
    });
    await server.deps.db.insert(onlinePayments).values([
      { ...row('tr_e2eExpired1', total.order_id, online, Math.round(total.amount_incl * 100), 0), status: 'expired', paidAt: null },
      { ...row('tr_e2eOnline1', total.order_id, online, Math.round(total.amount_incl * 100), 10), refundedCents: 1025, applied: true },
      { ...row('tr_e2eDouble1', invoiced.id, invoiced.reference, Math.round(invoiced.totalIncl * 100), 20), doublePayment: true },
    ]);

    await treasurer.reload();
    await treasurer.getByRole('tab', { name: 'Betalingen' }).click();
    const section = treasurer.locator('[data-slot=online-payments]');
    await section.locator('[data-slot=online-payment]').first().waitFor();
    expect(plain(await section.locator('p').first().textContent())).toMatch(/^Betalingen via Mollie/);
    const cells = async (id: string) => (await section.locator(`[data-payment="${id}"] td`).allTextContents()).map(plain);
    expect(await section.locator('[data-slot=online-payment]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-payment')))).toEqual([
      'tr_e2eDouble1',
      'tr_e2eOnline1',
      'tr_e2eExpired1',
    ]);
    const double = await cells('tr_e2eDouble1');
    expect(double[0]).toMatch(/^4 dec\.? 2026,? \d{2}:\d{2}$/);
    expect(double.slice(1)).toEqual([invoiced.reference, plain(euro(invoiced.totalIncl)), 'BetaaldDubbel betaald', '–', '–', 'Terugbetalen']);
    expect((await cells('tr_e2eOnline1')).slice(1)).toEqual([online, plain(euro(total.amount_incl)), 'Betaald', '€ 10,25', '–', '']);
    expect((await cells('tr_e2eExpired1')).slice(3, 4)).toEqual(['Verlopen']);
    await section.scrollIntoViewIfNeeded();
    await screenshot(section, 'management-online-payments-desktop.png');
    await expectAxeClean(treasurer, 'online payments, 1280');
    // On a phone a card each, the double payment's state and refund in view.
    await treasurer.setViewportSize(VIEWPORTS.phone);
    const card = section.locator('[data-slot=online-payment-card][data-payment="tr_e2eDouble1"]');
    await card.getByRole('button', { name: `Terugbetalen: dubbele betaling van ${invoiced.reference}` }).waitFor();
    expect(plain(await card.locator('[data-slot=double-payment]').textContent())).toBe('Dubbel betaald');
    expect(await treasurer.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await screenshot(section, 'management-online-payments-phone.png');
    await treasurer.setViewportSize(VIEWPORTS.desktop);
    // Refunding a double payment asks first; cancelled here (a refund needs Mollie, tested against its stand-in elsewhere).
    await section.getByRole('button', { name: `Terugbetalen: dubbele betaling van ${invoiced.reference}` }).click();
    const confirm = treasurer.getByRole('alertdialog', { name: 'Dubbele betaling terugbetalen?' });
    expect(plain(await confirm.getByText(/^Het hele bedrag/).textContent())).toBe(`Het hele bedrag van ${invoiced.reference} terugbetalen via Mollie?`);
    await confirm.getByRole('button', { name: 'Annuleren' }).click();
    await confirm.waitFor({ state: 'detached' });

    // The order paid online: how, and what went back, in its row and its dialog, with the refund dialog.
    await treasurer.getByRole('tab', { name: 'Bestellingen' }).click();
    const orderRow = treasurer.locator(`tr[data-order="${online}"]`);
    expect(plain(await orderRow.locator('[data-slot=refunded]').textContent())).toBe('Terugbetaald: € 10,25');
    await orderRow.getByRole('button', { name: `Bestelling ${online} bewerken` }).click();
    const dialog = treasurer.getByRole('dialog', { name: 'Bestelling Bewerken' });
    await dialog.locator('[data-slot=order-balance]').waitFor();
    expect(plain(await dialog.locator('[data-slot=payment-method]').textContent())).toBe('Betaald via: iDEAL (online)');
    expect(plain(await dialog.locator('[data-slot=order-refunded]').textContent())).toBe('Terugbetaald: € 10,25');
    await screenshot(dialog.locator('[data-slot=order-payments]'), 'management-order-paid-online-desktop.png');
    await dialog.getByRole('button', { name: 'Terugbetalen…' }).click();
    const refund = treasurer.getByRole('dialog', { name: `Terugbetalen: ${online}` });
    const amount = refund.getByRole('textbox', { name: 'Bedrag (€)' });
    expect(await amount.inputValue()).toBe('');
    // An amount with three decimals is refused with the server's text, before anything is sent.
    await amount.fill('10,255');
    await refund.getByRole('button', { name: 'Terugbetalen' }).click();
    expect(plain(await refund.locator('[data-slot=refund-error]').textContent())).toBe(
      'Geef een bedrag in euro’s van minstens € 0,01, met ten hoogste twee decimalen.',
    );
    await screenshot(treasurer, 'management-refund-dialog-desktop.png');
    await expectAxeClean(treasurer, 'refund dialog, 1280');
    await refund.getByRole('button', { name: 'Annuleren' }).click();
    await refund.waitFor({ state: 'detached' });
    await treasurer.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    // The admin's settings screen: the stored key, refused by Mollie (as the server records a 401, by its digest).
    const key = `test_${'a1B2c3D4e5'.repeat(3)}`;
    expect((await api(admin, '/api/settings/update', { key: 'mollie_api_key', value: key })).status).toBe(200);
    const digest = encodeHexLowerCase(await keyedDigest(server.deps.secretKey, 'mollie-key', key));
    await server.deps.db.insert(providerKeyRefusals).values({ provider: 'mollie', keyDigest: digest, refusedAt: at(30) });
    await admin.goto(`${server.url}/admin/settings`);
    const warning = admin.locator('[data-slot=mollie-key-refused]');
    await warning.waitFor();
    expect(plain(await warning.textContent())).toMatch(
      /^Mollie refused the stored API key on 4 Dec 2026, \d{2}:\d{2}\. Check the key in your Mollie dashboard and enter it again\.$/,
    );
    await screenshot(admin, 'settings-mollie-key-refused-desktop.png');
    await expectAxeClean(admin, 'settings with a refused Mollie key, 1280');
  });

  it('keeps the charting library out of the public pages', async () => {
    const scriptsOf = async (page: Page, path: string) => {
      // Each body is read before the page moves on: a text still being read when the page navigated was lost.
      const scripts: Promise<{ url: string; body: string }>[] = [];
      const listener = (response: Response) => {
        if (response.request().resourceType() === 'script') scripts.push(response.text().then((body) => ({ url: response.url(), body })));
      };
      page.on('response', listener);
      await page.goto(`${server.url}${path}`, { waitUntil: 'networkidle' });
      page.off('response', listener);
      return Promise.all(scripts);
    };
    // The dashboard does load it (so the check below looks for the right thing)…
    const dashboard = await scriptsOf(treasurer, '/admin/management');
    expect(dashboard.some((s) => s.body.includes('recharts-surface'))).toBe(true);
    // …and / does not, for a visitor or a signed-in treasurer.
    const visitorContext = await browser.newContext({ viewport: VIEWPORTS.desktop });
    try {
      for (const page of [await visitorContext.newPage(), treasurer]) {
        const scripts = await scriptsOf(page, '/');
        expect(scripts.length).toBeGreaterThan(0);
        expect(scripts.filter((s) => s.body.includes('recharts-surface')).map((s) => s.url)).toEqual([]);
      }
    } finally {
      await visitorContext.close();
    }
    expect(pageErrors).toEqual([]);
  });
});
