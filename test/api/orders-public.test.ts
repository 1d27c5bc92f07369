import { asc, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mailOutbox, orders, rateLimits, sequences, tablers } from '../../src/db/schema';
import { issueGateToken } from '../../src/features/tablers/gate-token';
import { createTestApp, type TestApp } from '../support/test-app';
import { expectFailure, freshIps, transports, type CallInit } from '../support/transports';

/**
 * docs/product.md §2 order screen, §3 Tabler/Order, §4 order flow, §5 order password step and order form, §7 tablers
 * and orders calls; docs/architecture.md §3–4: POST /tablers/match (the public gate), admin-only GET /tablers, and
 * POST /orders/create (public: forced unpaid, tabler required, 1–500, rate-limited, refused during
 * maintenance, confirmation mail through the outbox; admin: every field, 1–10), with references
 * KP-<year>-<nnnn> unique and gap-free per Dutch year. REST and the tRPC twins tablers.match,
 * tablers.list and orders.create, through the real HTTP adapters.
 */

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;

const GATE = {
  empty: 'Voer het wachtwoord in.',
  tooShort: 'Wachtwoord moet minimaal 3 karakters bevatten.',
  noLetters: 'Wachtwoord moet letters bevatten.',
  noMatch: 'Onjuist wachtwoord. Probeer opnieuw.',
  tooMany: 'Te veel pogingen. Probeer het over een kwartier opnieuw.',
};
const QUANTITY = 'Aantal kerstpakketten is verplicht en moet groter dan 0 zijn.';
const QUANTITY_WHOLE = 'Aantal kerstpakketten moet een heel getal zijn, zoals 1, 2 of 3.';
const POSTCODE = 'Vul een geldige postcode in (1234 AB).';
const PHONE = 'Vul een geldig telefoonnummer in.';
const INVALID_EMAIL = 'Voer een geldig email adres in.';
const ORDERS_TOO_MANY = 'Te veel bestellingen vanaf dit adres. Probeer het later opnieuw.';
const GATE_TOKEN_SHAPE = /^[1-9]\d*\.\d+\.[A-Za-z0-9_-]{43}$/;
const NAME_LINK = 'Naam mag geen link of e-mailadres bevatten.';
/** The customer's order page on the test app's origin (PUBLIC_URL unset: the listening address). */
const ORDER_PAGE = /^http:\/\/127\.0\.0\.1:8787\/bestelling\/[A-Za-z0-9_-]{43}$/;
const ORDER_URL = expect.stringMatching(ORDER_PAGE);

type Op = 'match' | 'list' | 'create';

let t: TestApp;

/** A client address no other call uses, so per-address rate limits never leak between tests. */
const freshIp = freshIps((high, low) => `10.30.${high}.${low}`);

/** Every call comes from a fresh address unless it names one. */
const both = transports<Op>(
  () => t,
  {
    rest: { match: ['POST', '/tablers/match'], list: ['GET', '/tablers'], create: ['POST', '/orders/create'] },
    trpc: { match: ['mutation', 'tablers.match'], list: ['query', 'tablers.list'], create: ['mutation', 'orders.create'] },
  },
  { ip: freshIp },
);

/** A tabler made directly in the database (the admin CRUD for tablers comes later). */
async function insertTabler(name: string) {
  const now = t.clock.now().toISOString();
  const [row] = await t.db.insert(tablers).values({ name, createdAt: now, updatedAt: now }).returning();
  return row!;
}

async function setSetting(cookie: string, key: string, value: string | number | boolean) {
  const r = await t.request('/api/settings/update', { cookie, body: { key, value } });
  expect(r.json).toEqual({ success: true });
}

async function orderRows() {
  return t.db.select().from(orders).orderBy(asc(orders.id));
}

async function outbox() {
  return t.db.select().from(mailOutbox).orderBy(asc(mailOutbox.id));
}

/** A fresh app for every test of the enclosing describe, so references start at 0001 each time. */
function freshAppPerTest() {
  beforeEach(async () => {
    t = await createTestApp();
  });
  afterEach(async () => {
    // Expected failures are answers, never logged crashes.
    expect(t.errors).toEqual([]);
    await t.close();
  });
}

/** One app for the whole describe. */
function oneAppPerDescribe() {
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterEach(() => {
    expect(t.errors).toEqual([]);
  });
  afterAll(async () => {
    await t.close();
  });
}

describe.each(both)('$name tabler gate (POST /tablers/match, tablers.match)', (tr) => {
  oneAppPerDescribe();
  beforeEach(async () => {
    await t.db.delete(tablers);
  });

  const match = (password: unknown, ip?: string) => tr.call('match', { body: password === undefined ? {} : { password }, ...(ip ? { ip } : {}) });

  describe('input rules of docs/product.md §5, in order', () => {
    it.each([
      ['an empty password', ''],
      ['a password of only spaces', '    '],
      ['no password field at all', undefined],
    ])('asks for the password for %s', async (_label, password) => {
      await insertTabler('Jan Jansen');
      expectFailure(tr, await match(password), 400, GATE.empty);
    });

    it.each(['ab', 'a b', ' x '])('refuses fewer than 3 characters (%j)', async (password) => {
      await insertTabler('Jan Jansen');
      expectFailure(tr, await match(password), 400, GATE.tooShort);
    });

    it.each(['1234', '12 34', '!!!'])('refuses a password without letters (%j)', async (password) => {
      await insertTabler('Jan Jansen');
      expectFailure(tr, await match(password), 400, GATE.noLetters);
    });

    it('refuses a password that is not text with a 400', async () => {
      await insertTabler('Jan Jansen');
      const answer = await match(12345);
      expect(answer.status).toBe(400);
    });
  });

  describe('matching against tabler names', () => {
    it('answers {success:true, tabler:{id,name}} for a matching name', async () => {
      const jan = await insertTabler('Jan Jansen');
      const answer = await match('Jan Jansen');
      expect(answer.status).toBe(200);
      expect(answer.data).toEqual({ success: true, tabler: { id: jan.id, name: 'Jan Jansen' }, gate_token: expect.stringMatching(GATE_TOKEN_SHAPE) });
    });

    it('refuses with the no-match text when there are no tablers at all', async () => {
      expectFailure(tr, await match('Jan Jansen'), 400, GATE.noMatch);
    });

    it('refuses with the no-match text when no tabler name is related', async () => {
      await insertTabler('Jan Jansen');
      await insertTabler('Klaas de Vries');
      expectFailure(tr, await match('Willem'), 400, GATE.noMatch);
    });

    it('ignores case and whitespace: "jan jansen" and "JANJANSEN" match tabler "Jan Jansen"', async () => {
      const jan = await insertTabler('Jan Jansen');
      await insertTabler('Klaas de Vries');
      for (const password of ['jan jansen', 'JANJANSEN', '  jan   JANSEN ']) {
        const answer = await match(password);
        expect(answer.data, password).toEqual({
          success: true,
          tabler: { id: jan.id, name: 'Jan Jansen' },
          gate_token: expect.stringMatching(GATE_TOKEN_SHAPE),
        });
      }
    });

    it('matches part of a name: "JANSEN" finds "Jan Jansen" when it is the only candidate', async () => {
      const jan = await insertTabler('Jan Jansen');
      await insertTabler('Klaas de Vries');
      const answer = await match('JANSEN');
      expect(answer.data).toEqual({ success: true, tabler: { id: jan.id, name: 'Jan Jansen' }, gate_token: expect.stringMatching(GATE_TOKEN_SHAPE) });
    });

    it('matches an input that contains the whole name', async () => {
      const klaas = await insertTabler('Klaas de Vries');
      await insertTabler('Jan Jansen');
      const answer = await match('Klaas de Vries uit Harlingen');
      expect(answer.data).toEqual({ success: true, tabler: { id: klaas.id, name: 'Klaas de Vries' }, gate_token: expect.stringMatching(GATE_TOKEN_SHAPE) });
    });

    it('prefers the exact normalised match over containment', async () => {
      const janJansen = await insertTabler('Jan Jansen');
      const jan = await insertTabler('Jan');
      // 'jan' is contained in 'Jan Jansen', but equals 'Jan'.
      expect((await match('jan')).data).toEqual({ success: true, tabler: { id: jan.id, name: 'Jan' }, gate_token: expect.stringMatching(GATE_TOKEN_SHAPE) });
      // 'Jan Jansen' contains 'Jan', but equals 'Jan Jansen'.
      expect((await match('jan jansen')).data).toEqual({
        success: true,
        tabler: { id: janJansen.id, name: 'Jan Jansen' },
        gate_token: expect.stringMatching(GATE_TOKEN_SHAPE),
      });
    });

    it('refuses an ambiguous containment (two candidates) with the no-match text', async () => {
      await insertTabler('Jan Jansen');
      await insertTabler('Piet Jansen');
      expectFailure(tr, await match('jansen'), 400, GATE.noMatch);
      expectFailure(tr, await match('Jan Jansen en Piet Jansen'), 400, GATE.noMatch);
    });
  });

  describe('rate limit', () => {
    it('always lets a matching name through, and limits only wrong names: 9 are answered, the next wrong one is 429; another address is unaffected', async () => {
      const jan = await insertTabler('Jan Jansen');
      const ip = freshIp();
      for (let i = 0; i < 30; i++) {
        expect((await match('Jan Jansen', ip)).status, `pass ${i + 1}`).toBe(200);
      }
      for (let i = 0; i < 9; i++) {
        expectFailure(tr, await match('Willem', ip), 400, GATE.noMatch);
      }
      expectFailure(tr, await match('Willem', ip), 429, GATE.tooMany);
      // Members sharing the address (a market stall's Wi-Fi) still pass with their own names.
      const passed = await match('Jan Jansen', ip);
      expect(passed.data).toEqual({ success: true, tabler: { id: jan.id, name: 'Jan Jansen' }, gate_token: expect.stringMatching(GATE_TOKEN_SHAPE) });
      expectFailure(tr, await match('Willem', ip), 429, GATE.tooMany);

      expectFailure(tr, await match('Willem', freshIp()), 400, GATE.noMatch);
    });

    it('answers wrong names again once the quarter of an hour is over', async () => {
      await insertTabler('Jan Jansen');
      const ip = freshIp();
      for (let i = 0; i < 10; i++) await match('Willem', ip);
      expectFailure(tr, await match('Willem', ip), 429, GATE.tooMany);
      t.clock.advance(14 * MINUTE);
      expectFailure(tr, await match('Willem', ip), 429, GATE.tooMany);
      t.clock.advance(1 * MINUTE);
      expectFailure(tr, await match('Willem', ip), 400, GATE.noMatch);
    });
  });
});

describe.each(both)('$name tabler list (GET /tablers, tablers.list)', (tr) => {
  oneAppPerDescribe();
  let adminCookie: string;
  let userCookie: string;

  beforeAll(async () => {
    adminCookie = await t.cookieFor('admin');
    await t.createUser('plain_user');
    userCookie = await t.cookieFor('plain_user');
  });
  beforeEach(async () => {
    await t.db.delete(tablers);
  });

  it('refuses an anonymous visitor with 401 Not logged in', async () => {
    await insertTabler('Jan Jansen');
    expectFailure(tr, await tr.call('list'), 401, 'Not logged in');
  });

  it('refuses a signed-in user without admin.access with 403 Forbidden', async () => {
    await insertTabler('Jan Jansen');
    expectFailure(tr, await tr.call('list', { cookie: userCookie }), 403, 'Forbidden');
  });

  it('gives an admin every tabler as {id,name,created_at,updated_at}, sorted by name', async () => {
    const piet = await insertTabler('Piet Jansen');
    t.clock.advance(MINUTE);
    const bram = await insertTabler('Bram Bakker');
    const klaas = await insertTabler('Klaas de Vries');
    const answer = await tr.call('list', { cookie: adminCookie });
    expect(answer.status).toBe(200);
    const view = (row: typeof piet) => ({ id: row.id, name: row.name, created_at: row.createdAt, updated_at: row.updatedAt });
    expect(answer.data).toEqual([view(bram), view(klaas), view(piet)]);
  });

  it('sorts names case-insensitively, so a name with a lower-case prefix ("van Dijk") sits among the others', async () => {
    await insertTabler('Zeger Zwart');
    await insertTabler('van Dijk');
    await insertTabler('Anne Abma');
    const answer = await tr.call('list', { cookie: adminCookie });
    expect(answer.data.map((x: { name: string }) => x.name)).toEqual(['Anne Abma', 'van Dijk', 'Zeger Zwart']);
  });

  it('gives an admin an empty list when there are no tablers', async () => {
    const answer = await tr.call('list', { cookie: adminCookie });
    expect(answer.status).toBe(200);
    expect(answer.data).toEqual([]);
  });
});

/** A complete public order body for tabler `tablerId`. */
function orderBody(tablerId: number | undefined, extra: Record<string, unknown> = {}) {
  return {
    ...(tablerId !== undefined ? { tabler_id: tablerId } : {}),
    name: 'Anna de Boer',
    email: 'anna@example.nl',
    phone: '0517-123456',
    address: 'Voorstraat 12',
    postal_code: '8861BM',
    city: 'Harlingen',
    amount: 2,
    notes: 'Graag na 17:00 bezorgen',
    ...extra,
  };
}

describe.each(both)('$name public order create (POST /orders/create, orders.create)', (tr) => {
  let tablerId: number;
  /** A fresh app with one tabler for every test, so references start at KP-2026-0001. */
  function freshAppWithTabler() {
    freshAppPerTest();
    beforeEach(async () => {
      tablerId = (await insertTabler('Jan Jansen')).id;
    });
  }

  const create = (body: unknown, init: Omit<CallInit, 'body'> = {}) => tr.call('create', { body, ...init });

  describe('success', () => {
    freshAppWithTabler();

    it('answers {success:true, order_reference:"KP-2026-0001"}, then KP-2026-0002 and KP-2026-0003 for the next orders', async () => {
      const first = await create(orderBody(tablerId));
      expect(first.status).toBe(200);
      expect(first.data).toEqual({ success: true, order_reference: 'KP-2026-0001', order_url: ORDER_URL });
      expect((await create(orderBody(tablerId))).data).toEqual({ success: true, order_reference: 'KP-2026-0002', order_url: ORDER_URL });
      expect((await create(orderBody(tablerId))).data).toEqual({ success: true, order_reference: 'KP-2026-0003', order_url: ORDER_URL });
    });

    it('stores every field of the order', async () => {
      await create(orderBody(tablerId));
      const rows = await orderRows();
      expect(rows).toHaveLength(1);
      const now = t.clock.now().toISOString();
      expect(rows[0]).toMatchObject({
        reference: 'KP-2026-0001',
        tablerId,
        name: 'Anna de Boer',
        email: 'anna@example.nl',
        phone: '0517-123456',
        address: 'Voorstraat 12',
        postalCode: '8861 BM',
        city: 'Harlingen',
        amount: 2,
        notes: 'Graag na 17:00 bezorgen',
        paid: false,
        invoiceSent: false,
        createdAt: now,
      });
    });

    it('stores the order unpaid with no invoice sent even when the body says paid:true and invoice_sent:true', async () => {
      const answer = await create(orderBody(tablerId, { paid: true, invoice_sent: true }));
      expect(answer.data).toEqual({ success: true, order_reference: 'KP-2026-0001', order_url: ORDER_URL });
      const [row] = await orderRows();
      expect(row!.paid).toBe(false);
      expect(row!.invoiceSent).toBe(false);
    });

    it('treats a signed-in user without admin.access like any visitor: forced unpaid, and a confirmation mail', async () => {
      await t.createUser('plain_user');
      const cookie = await t.cookieFor('plain_user');
      const answer = await create(orderBody(tablerId, { paid: true, invoice_sent: true }), { cookie });
      expect(answer.data).toEqual({ success: true, order_reference: 'KP-2026-0001', order_url: ORDER_URL });
      const [row] = await orderRows();
      expect(row).toMatchObject({ paid: false, invoiceSent: false });
      expect((await outbox()).map((m) => m.kind)).toEqual(['order-confirmation']);
    });

    it('accepts the public form spellings postalCode and quantity', async () => {
      const { postal_code: _p, amount: _a, ...rest } = orderBody(tablerId);
      const answer = await create({ ...rest, postalCode: '8862 AB', quantity: 4 });
      expect(answer.data).toEqual({ success: true, order_reference: 'KP-2026-0001', order_url: ORDER_URL });
      const [row] = await orderRows();
      expect(row).toMatchObject({ postalCode: '8862 AB', amount: 4 });
    });

    it('orders 1 package when no quantity is given', async () => {
      const { amount: _a, ...rest } = orderBody(tablerId);
      expect((await create(rest)).status).toBe(200);
      const [row] = await orderRows();
      expect(row!.amount).toBe(1);
    });

    it('accepts up to 500 packages', async () => {
      expect((await create(orderBody(tablerId, { amount: 500 }))).status).toBe(200);
      const [row] = await orderRows();
      expect(row!.amount).toBe(500);
    });

    it.each([
      ['left out', {}],
      ['null', { notes: null }],
      ['blank', { notes: '   ' }],
    ])('stores notes as null when they are %s', async (_label, notes) => {
      const { notes: _n, ...rest } = orderBody(tablerId);
      expect((await create({ ...rest, ...notes })).status).toBe(200);
      const [row] = await orderRows();
      expect(row!.notes).toBeNull();
    });

    it('stores notes trimmed', async () => {
      await create(orderBody(tablerId, { notes: '  Bel even aan bij de buren  ' }));
      const [row] = await orderRows();
      expect(row!.notes).toBe('Bel even aan bij de buren');
    });

    it('confirms what was ordered and where it goes: address, phone, notes and the total incl. VAT', async () => {
      const answer = await create(orderBody(tablerId, { postal_code: ' 8861bm ' }));
      const orderUrl = (answer.data as { order_url: string }).order_url;
      expect(orderUrl).toMatch(ORDER_PAGE);
      const [mail] = await outbox();
      expect(mail!.textBody).toBe(
        [
          'Beste Anna de Boer,',
          '',
          'Hartelijk dank voor je bestelling bij de kerstactie van Ronde Tafel 144 Harlingen! Een lid van de club neemt contact met je op voor de verdere afhandeling. De factuur ontvang je per e-mail.',
          '',
          'Bestelnummer: KP-2026-0001',
          'Aantal kerstpakketten: 2 (€ 75 per pakket, exclusief btw)',
          'Totaal inclusief btw: € 181,50',
          '',
          'Afleveradres:',
          'Voorstraat 12',
          '8861 BM Harlingen',
          'Telefoon: 0517-123456',
          '',
          'Opmerkingen:',
          'Graag na 17:00 bezorgen',
          '',
          'Je bestelling bekijken:',
          orderUrl,
          '',
          'Klopt er iets niet? Beantwoord dan deze e-mail.',
          '',
          'De volledige opbrengst gaat naar goede doelen in de regio.',
          '',
          'Met vriendelijke groet,',
          'Ronde Tafel 144 Harlingen',
        ].join('\n'),
      );
    });

    it('says which member took the order when it came through the gate, and prices it as the VAT split says', async () => {
      const admin = await t.cookieFor('admin');
      await setSetting(
        admin,
        'vat_split',
        JSON.stringify([
          { label: 'Levensmiddelen', share_percent: 60, vat_rate: 9 },
          { label: 'Overig', share_percent: 40, vat_rate: 21 },
        ]),
      );
      const token: string = (await tr.call('match', { body: { password: 'Jan Jansen' } })).data.gate_token;
      const { notes: _n, ...rest } = orderBody(tablerId, { amount: 3 });
      expect((await create({ ...rest, gate_token: token })).status).toBe(200);
      const [mail] = await outbox();
      expect(mail!.textBody).toContain(
        'Hartelijk dank voor je bestelling bij de kerstactie van Ronde Tafel 144 Harlingen! Jan Jansen heeft je bestelling opgenomen en zorgt voor de verdere afhandeling. De factuur ontvang je per e-mail.',
      );
      expect(mail!.textBody).not.toContain('Een lid van de club neemt contact met je op');
      // 3 × € 75 = € 225: € 135 at 9 % and € 90 at 21 % make € 147,15 + € 108,90.
      expect(mail!.textBody).toContain('Totaal inclusief btw: € 256,05\n');
      expect(mail!.textBody).not.toContain('Opmerkingen:');
    });

    it('leaves out what a mail program would make a link, and keeps it with the order', async () => {
      const notes = 'Uw pakket staat klaar: ga naar www.pakket-check.nl of mail info@pakket-check.nl';
      await create(orderBody(tablerId, { address: 'Zie https://evil.example 1', city: 'Harlingen', notes }));
      const [mail] = await outbox();
      const text = mail!.textBody;
      for (const part of ['pakket-check', 'evil.example', 'https']) expect(text).not.toContain(part);
      expect(text).toContain('Afleveradres:\n(niet herhaald in deze e-mail: bevat een link of e-mailadres)\n8861 BM Harlingen\n');
      expect(text).toContain('Opmerkingen:\n(niet herhaald in deze e-mail: bevat een link of e-mailadres)\n');
      const [row] = await orderRows();
      expect(row).toMatchObject({ address: 'Zie https://evil.example 1', notes });
    });

    it('stores a Dutch postcode as 1234 AB however it was typed, and takes phone numbers of 10 to 15 digits', async () => {
      const accepted = [
        ['8861bm', '0517123456'],
        ['  8861   bM ', '+31 (0)6-12345678'],
        ['1000AA', '+49 151 1234 5678'],
      ] as const;
      for (const [postal_code, phone] of accepted) {
        expect((await create(orderBody(tablerId, { postal_code, phone, email: `${phone.replace(/\D/g, '')}@example.nl` }))).status, postal_code).toBe(200);
      }
      expect((await orderRows()).map((r) => [r.postalCode, r.phone])).toEqual([
        ['8861 BM', '0517123456'],
        ['8861 BM', '+31 (0)6-12345678'],
        ['1000 AA', '+49 151 1234 5678'],
      ]);
    });

    it('queues an order-confirmation mail to the customer with the reference and the quantity', async () => {
      await create(orderBody(tablerId, { amount: 3, email: 'klant@example.nl' }));
      const mails = await outbox();
      expect(mails).toHaveLength(1);
      const [mail] = mails;
      expect(mail!.kind).toBe('order-confirmation');
      expect(mail!.toAddress).toBe('klant@example.nl');
      expect(mail!.status).toBe('queued');
      expect(mail!.subject).toContain('KP-2026-0001');
      expect(mail!.textBody).toContain('KP-2026-0001');
      expect(mail!.textBody).toContain('Aantal kerstpakketten: 3');
    });
  });

  describe('refusals (nothing is stored and no mail is queued)', () => {
    // No order is ever stored here, so one app serves every refusal.
    oneAppPerDescribe();
    beforeAll(async () => {
      tablerId = (await insertTabler('Jan Jansen')).id;
    });
    afterEach(async () => {
      expect(await orderRows()).toEqual([]);
      expect(await outbox()).toEqual([]);
    });

    it.each(['Uw account is geblokkeerd, ga naar https://evil.example', 'Kijk op www.prijs.nl', 'mail me: a@b.nl', 'bank-check.com'])(
      'refuses a name with a link or an e-mail address: %s',
      async (name) => {
        expectFailure(tr, await create(orderBody(tablerId, { name })), 400, NAME_LINK);
      },
    );

    it.each([
      ['name', 'Naam'],
      ['email', 'Email'],
      ['phone', 'Telefoon'],
      ['address', 'Adres'],
      ['postal_code', 'Postcode'],
      ['city', 'Plaats'],
    ])('refuses a missing %s with "%s is verplicht."', async (field, label) => {
      const body: Record<string, unknown> = orderBody(tablerId);
      delete body[field];
      expectFailure(tr, await create(body), 400, `${label} is verplicht.`);
    });

    it.each([
      ['name', 'Naam'],
      ['email', 'Email'],
      ['phone', 'Telefoon'],
      ['address', 'Adres'],
      ['postal_code', 'Postcode'],
      ['city', 'Plaats'],
    ])('refuses a blank %s with "%s is verplicht."', async (field, label) => {
      expectFailure(tr, await create(orderBody(tablerId, { [field]: '   ' })), 400, `${label} is verplicht.`);
    });

    it('refuses a blank postalCode (the public form spelling) with "Postcode is verplicht."', async () => {
      const { postal_code: _p, ...rest } = orderBody(tablerId);
      expectFailure(tr, await create({ ...rest, postalCode: '  ' }), 400, 'Postcode is verplicht.');
    });

    it.each(['anna', 'anna@', 'anna@example', 'anna @example.nl', '@example.nl'])(
      'refuses the e-mail address %j with "Voer een geldig email adres in."',
      async (email) => {
        expectFailure(tr, await create(orderBody(tablerId, { email })), 400, INVALID_EMAIL);
      },
    );

    it.each([0, -1, '-3', '0', ''])('refuses quantity %j with the quantity text', async (quantity) => {
      const { amount: _a, ...rest } = orderBody(tablerId);
      expectFailure(tr, await create({ ...rest, quantity }), 400, QUANTITY);
    });

    it.each([0, -1])('refuses amount %j with the quantity text', async (amount) => {
      expectFailure(tr, await create(orderBody(tablerId, { amount })), 400, QUANTITY);
    });

    // Refused as sent, never read as another number: '2.5' is not 25 or 2, '1e2' not 100.
    it.each([1.5, 2.5, '2.5', '2,5', '1e2', '0x10', 'abc', '3 stuks'])('refuses the quantity %j as no whole number', async (quantity) => {
      const { amount: _a, ...rest } = orderBody(tablerId);
      expectFailure(tr, await create({ ...rest, quantity }), 400, QUANTITY_WHOLE);
      expectFailure(tr, await create({ ...rest, amount: quantity }), 400, QUANTITY_WHOLE);
    });

    it.each(['ABCDE', '123', '8861', '0861 BM', '8861-BM', 'B-8000', '26789'])('refuses the postcode %j with the postcode text', async (postal_code) => {
      expectFailure(tr, await create(orderBody(tablerId, { postal_code })), 400, POSTCODE);
    });

    it.each(['123', '06', 'bel me maar', '06.12.34.56.78', '0612345678 na 17u', '1234567890123456'])(
      'refuses the phone number %j with the phone text',
      async (phone) => {
        expectFailure(tr, await create(orderBody(tablerId, { phone })), 400, PHONE);
      },
    );

    it('refuses 501 packages with "Het aantal kerstpakketten is maximaal 500."', async () => {
      expectFailure(tr, await create(orderBody(tablerId, { amount: 501 })), 400, 'Het aantal kerstpakketten is maximaal 500.');
    });

    it.each([
      ['left out', undefined],
      ['null', null],
      ['empty', ''],
    ])('refuses an order whose tabler_id is %s with "Kies eerst een tabler."', async (_label, value) => {
      const body: Record<string, unknown> = orderBody(tablerId);
      if (value === undefined) delete body.tabler_id;
      else body.tabler_id = value;
      expectFailure(tr, await create(body), 400, 'Kies eerst een tabler.');
    });

    it.each([9999, 0, -3, 'abc'])('refuses the unknown tabler %j with "Onbekende tabler."', async (id) => {
      expectFailure(tr, await create(orderBody(tablerId, { tabler_id: id })), 400, 'Onbekende tabler.');
    });

    it('refuses a body that is not an object with a 400', async () => {
      const answer = await create(['not', 'an', 'order']);
      expect(answer.status).toBe(400);
    });
  });

  describe('maintenance mode', () => {
    freshAppWithTabler();

    it('refuses a visitor with 503 Maintenance and stores nothing', async () => {
      await setSetting(await t.cookieFor('admin'), 'maintenance_mode', true);
      const answer = await create(orderBody(tablerId));
      expectFailure(tr, answer, 503, 'Maintenance');
      expect(await orderRows()).toEqual([]);
      expect(await outbox()).toEqual([]);
    });

    it('still lets an admin create an order', async () => {
      const adminCookie = await t.cookieFor('admin');
      await setSetting(adminCookie, 'maintenance_mode', true);
      const answer = await create(orderBody(tablerId), { cookie: adminCookie });
      expect(answer.data).toEqual({ success: true, order_reference: 'KP-2026-0001', order_url: ORDER_URL });
    });
  });

  describe('rate limit', () => {
    freshAppWithTabler();

    it('allows 20 public orders per address in an hour, then answers 429; another address is unaffected', async () => {
      const ip = freshIp();
      for (let i = 0; i < 20; i++) {
        const answer = await create(orderBody(tablerId), { ip });
        expect(answer.status, `order ${i + 1}`).toBe(200);
      }
      expectFailure(tr, await create(orderBody(tablerId), { ip }), 429, ORDERS_TOO_MANY);
      expect(await orderRows()).toHaveLength(20);

      const other = await create(orderBody(tablerId), { ip: freshIp() });
      expect(other.data).toEqual({ success: true, order_reference: 'KP-2026-0021', order_url: ORDER_URL });
    });

    it('lifts the limit to 200 an hour for orders sent with a valid gate token for their tabler', async () => {
      const ip = freshIp();
      const token: string = (await tr.call('match', { body: { password: 'Jan Jansen' }, ip })).data.gate_token;
      for (let i = 0; i < 25; i++) {
        expect((await create({ ...orderBody(tablerId), gate_token: token }, { ip })).status, `order ${i + 1}`).toBe(200);
      }
      // The member's orders leave the plain limit of that address untouched.
      for (let i = 0; i < 20; i++) expect((await create(orderBody(tablerId), { ip })).status).toBe(200);
      expectFailure(tr, await create(orderBody(tablerId), { ip }), 429, ORDERS_TOO_MANY);
      expect((await create({ ...orderBody(tablerId), gate_token: token }, { ip })).status).toBe(200);
      await t.db
        .update(rateLimits)
        .set({ count: 200 })
        .where(eq(rateLimits.key, `order-create:gated:ip:${ip}`));
      expectFailure(tr, await create({ ...orderBody(tablerId), gate_token: token }, { ip }), 429, ORDERS_TOO_MANY);
    });

    it('ignores a token of another tabler, an expired, a tampered or a foreign one: the plain limit applies', async () => {
      const other = await insertTabler('Klaas de Vries');
      const otherToken: string = (await tr.call('match', { body: { password: 'Klaas de Vries' }, ip: freshIp() })).data.gate_token;
      const oldToken: string = (await tr.call('match', { body: { password: 'Jan Jansen' }, ip: freshIp() })).data.gate_token;
      t.clock.advance(12 * HOUR);
      const fresh: string = (await tr.call('match', { body: { password: 'Jan Jansen' }, ip: freshIp() })).data.gate_token;
      const tampered = `${fresh.slice(0, -2)}${fresh.endsWith('AA') ? 'BB' : 'AA'}`;
      const foreign = await issueGateToken('9'.repeat(64), tablerId, t.clock.now());
      expect(other.id).not.toBe(tablerId);
      for (const gate_token of [otherToken, oldToken, tampered, foreign, 'not-a-token', 42]) {
        const ip = freshIp();
        for (let i = 0; i < 20; i++) expect((await create({ ...orderBody(tablerId), gate_token }, { ip })).status).toBe(200);
        expectFailure(tr, await create({ ...orderBody(tablerId), gate_token }, { ip }), 429, ORDERS_TOO_MANY);
      }
    });

    it('allows the address again after an hour', async () => {
      const ip = freshIp();
      for (let i = 0; i < 20; i++) await create(orderBody(tablerId), { ip });
      expect((await create(orderBody(tablerId), { ip })).status).toBe(429);
      t.clock.advance(HOUR);
      expect((await create(orderBody(tablerId), { ip })).data).toEqual({ success: true, order_reference: 'KP-2026-0021', order_url: ORDER_URL });
    });
  });

  describe('references', () => {
    freshAppWithTabler();

    it('gives 50 concurrent orders 50 distinct, gap-free references KP-2026-0001..0050 and 50 rows', async () => {
      // Each to its own address: one recipient gets at most 3 confirmations a day (docs/decisions/055).
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) => create(orderBody(tablerId, { name: `Klant ${i + 1}`, email: `klant${i + 1}@example.nl` }), { ip: freshIp() })),
      );
      for (const answer of answers) expect(answer.status).toBe(200);
      const references = answers.map((a) => a.data.order_reference as string).sort();
      const expected = Array.from({ length: 50 }, (_, i) => `KP-2026-${String(i + 1).padStart(4, '0')}`);
      expect(references).toEqual(expected);

      const rows = await orderRows();
      expect(rows).toHaveLength(50);
      expect(rows.map((r) => r.reference).sort()).toEqual(expected);
      expect(new Set(rows.map((r) => r.name)).size).toBe(50);
      // Each answer names the row that holds that customer.
      for (const [i, answer] of answers.entries()) {
        expect(rows.find((r) => r.reference === answer.data.order_reference)!.name).toBe(`Klant ${i + 1}`);
      }
      // Each confirmation, queued in its order's batch, names that order's reference.
      const mails = await outbox();
      expect(mails).toHaveLength(50);
      for (const row of rows) expect(mails.find((m) => m.toAddress === row.email)!.subject).toBe(`Bevestiging van je bestelling ${row.reference}`);
      const [counter] = await t.db.select().from(sequences).where(eq(sequences.name, 'order'));
      expect(counter).toMatchObject({ year: 2026, value: 50 });
    });

    it('starts a new series in the new Dutch year: 00:30 on 1 January in Amsterdam (23:30 UTC) is KP-2027-0001', async () => {
      // Before midnight in Amsterdam the order still belongs to 2026.
      t.clock.advance(new Date('2026-12-31T22:30:00.000Z').getTime() - t.clock.now().getTime());
      expect((await create(orderBody(tablerId))).data).toEqual({ success: true, order_reference: 'KP-2026-0001', order_url: ORDER_URL });

      t.clock.advance(HOUR); // 2026-12-31T23:30:00Z
      expect(t.clock.now().toISOString()).toBe('2026-12-31T23:30:00.000Z');
      expect((await create(orderBody(tablerId))).data).toEqual({ success: true, order_reference: 'KP-2027-0001', order_url: ORDER_URL });
      expect((await create(orderBody(tablerId))).data).toEqual({ success: true, order_reference: 'KP-2027-0002', order_url: ORDER_URL });
    });

    it('never reuses a reference after an order row is gone', async () => {
      await create(orderBody(tablerId));
      await create(orderBody(tablerId));
      await t.db.delete(orders).where(eq(orders.reference, 'KP-2026-0002'));
      expect((await create(orderBody(tablerId))).data).toEqual({ success: true, order_reference: 'KP-2026-0003', order_url: ORDER_URL });
    });
  });
});

describe.each(both)('$name admin order create (back-office)', (tr) => {
  freshAppPerTest();
  let tablerId: number;
  let adminCookie: string;
  beforeEach(async () => {
    tablerId = (await insertTabler('Jan Jansen')).id;
    adminCookie = await t.cookieFor('admin');
  });

  const create = (body: unknown) => tr.call('create', { body, cookie: adminCookie });

  it('may set paid and invoice_sent', async () => {
    const answer = await create(orderBody(tablerId, { paid: true, invoice_sent: true }));
    expect(answer.data).toEqual({ success: true, order_reference: 'KP-2026-0001', order_url: ORDER_URL });
    const [row] = await orderRows();
    expect(row).toMatchObject({ paid: true, invoiceSent: true });
  });

  it('stores paid and invoice_sent false when left out', async () => {
    await create(orderBody(tablerId));
    const [row] = await orderRows();
    expect(row).toMatchObject({ paid: false, invoiceSent: false });
  });

  it('accepts 10 packages and refuses 11 with "Het aantal is 1 tot en met 10."', async () => {
    expect((await create(orderBody(tablerId, { amount: 10 }))).status).toBe(200);
    expectFailure(tr, await create(orderBody(tablerId, { amount: 11 })), 400, 'Het aantal is 1 tot en met 10.');
    expect((await orderRows()).map((r) => r.amount)).toEqual([10]);
  });

  it('queues no confirmation mail', async () => {
    expect((await create(orderBody(tablerId))).status).toBe(200);
    expect(await outbox()).toEqual([]);
  });

  it('takes a foreign postcode and any phone as typed, and a Dutch postcode as 1234 AB (docs/decisions/056)', async () => {
    expect((await create(orderBody(tablerId, { postal_code: 'B-8000', phone: '050 12 34', city: 'Brugge' }))).status).toBe(200);
    expect((await create(orderBody(tablerId, { postal_code: '8861bm', phone: 'na 17:00 bellen' }))).status).toBe(200);
    expect((await orderRows()).map((r) => [r.postalCode, r.phone])).toEqual([
      ['B-8000', '050 12 34'],
      ['8861 BM', 'na 17:00 bellen'],
    ]);
  });

  it('may leave tabler_id out: the order is stored without a tabler', async () => {
    const body: Record<string, unknown> = orderBody(tablerId);
    delete body.tabler_id;
    expect((await create(body)).data).toEqual({ success: true, order_reference: 'KP-2026-0001', order_url: ORDER_URL });
    const [row] = await orderRows();
    expect(row!.tablerId).toBeNull();
  });

  it('still refuses an unknown tabler with "Onbekende tabler."', async () => {
    expectFailure(tr, await create(orderBody(tablerId, { tabler_id: 9999 })), 400, 'Onbekende tabler.');
    expect(await orderRows()).toEqual([]);
  });

  it('is not rate-limited like the public form', async () => {
    for (let i = 0; i < 21; i++) expect((await tr.call('create', { body: orderBody(tablerId), cookie: adminCookie, ip: '10.99.99.99' })).status).toBe(200);
    expect(await orderRows()).toHaveLength(21);
  });
});
