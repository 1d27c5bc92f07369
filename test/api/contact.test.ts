import { asc } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { contactMessages, mailOutbox } from '../../src/db/schema';
import { createTestApp, type TestApp } from '../support/test-app';
import { expectFailure, freshIps, transports } from '../support/transports';

/**
 * docs/product.md §2 contact page, §3 contact message, §5 contact (all four fields required), §7 POST /contact/send,
 * §8 contact messages; docs/architecture.md §3: stored first, then mailed to the club address through the outbox,
 * rate-limited per address, refused during maintenance, a honeypot against bots. REST and the tRPC twin
 * contact.send, through the real HTTP adapters.
 */

const HOUR = 60 * 60 * 1000;
const TOO_MANY = 'Je hebt al een aantal berichten gestuurd. Probeer het over een uur opnieuw.';
const INVALID_EMAIL = 'Voer een geldig email adres in.';
const DEFAULT_CLUB_EMAIL = 'kerstactie@example.nl';

let t: TestApp;
let adminCookie: string;

/** A client address no other call uses, so the per-address limit of one test never touches another. */
const freshIp = freshIps((high, low) => `10.40.${high}.${low}`);

/** Every call comes from a fresh address unless it names one. */
const both = transports<'send'>(() => t, { rest: { send: ['POST', '/contact/send'] }, trpc: { send: ['mutation', 'contact.send'] } }, { ip: freshIp });

async function setSetting(key: string, value: string | boolean) {
  const r = await t.request('/api/settings/update', { cookie: adminCookie, body: { key, value } });
  expect(r.json).toEqual({ success: true });
}

const storedMessages = () => t.db.select().from(contactMessages).orderBy(asc(contactMessages.id));
const outbox = () => t.db.select().from(mailOutbox).orderBy(asc(mailOutbox.id));

function message(extra: Record<string, unknown> = {}) {
  return {
    name: 'Anna de Boer',
    email: 'anna@example.nl',
    subject: 'Vraag over bezorging',
    message: 'Bezorgen jullie ook in Franeker?',
    ...extra,
  };
}

beforeAll(async () => {
  t = await createTestApp();
  adminCookie = await t.cookieFor('admin');
});

afterAll(async () => {
  await t.close();
});

beforeEach(async () => {
  await t.db.delete(contactMessages);
  await t.db.delete(mailOutbox);
});

afterEach(() => {
  // Expected failures are answers, never logged crashes.
  expect(t.errors).toEqual([]);
});

describe.each(both)('$name contact form (POST /contact/send, contact.send)', (tr) => {
  describe('success', () => {
    it('answers {success:true} and stores the message', async () => {
      const answer = await tr.call('send', { body: message() });
      expect(answer.status).toBe(200);
      expect(answer.data).toEqual({ success: true });
      const rows = await storedMessages();
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        name: 'Anna de Boer',
        email: 'anna@example.nl',
        subject: 'Vraag over bezorging',
        message: 'Bezorgen jullie ook in Franeker?',
        createdAt: t.clock.now().toISOString(),
      });
    });

    it('stores the fields trimmed', async () => {
      await tr.call('send', { body: message({ name: '  Anna de Boer ', email: ' anna@example.nl ', subject: ' Vraag ', message: '\n Hallo \n' }) });
      const [row] = await storedMessages();
      expect(row).toMatchObject({ name: 'Anna de Boer', email: 'anna@example.nl', subject: 'Vraag', message: 'Hallo' });
    });

    it('queues a mail of kind "contact" to the club address with subject "Contactformulier: <subject>"', async () => {
      await tr.call('send', { body: message() });
      const mails = await outbox();
      expect(mails).toHaveLength(1);
      const [mail] = mails;
      expect(mail).toMatchObject({
        kind: 'contact',
        toAddress: DEFAULT_CLUB_EMAIL,
        subject: 'Contactformulier: Vraag over bezorging',
        status: 'queued',
      });
      expect(mail!.textBody).toContain('Anna de Boer');
      expect(mail!.textBody).toContain('anna@example.nl');
      expect(mail!.textBody).toContain('Bezorgen jullie ook in Franeker?');
    });

    it('sends the mail to whatever the club_email setting says', async () => {
      await setSetting('club_email', 'secretaris@ronde-tafel.example');
      try {
        await tr.call('send', { body: message() });
        const [mail] = await outbox();
        expect(mail!.toAddress).toBe('secretaris@ronde-tafel.example');
      } finally {
        await setSetting('club_email', DEFAULT_CLUB_EMAIL);
      }
    });

    it('accepts a message of 5000 characters', async () => {
      const answer = await tr.call('send', { body: message({ message: 'x'.repeat(5000) }) });
      expect(answer.data).toEqual({ success: true });
      expect((await storedMessages())[0]!.message).toHaveLength(5000);
    });
  });

  describe('refusals (nothing is stored and no mail is queued)', () => {
    afterEach(async () => {
      expect(await storedMessages()).toEqual([]);
      expect(await outbox()).toEqual([]);
    });

    it.each([
      ['name', 'Naam is verplicht.'],
      ['email', 'Email is verplicht.'],
      ['subject', 'Onderwerp is verplicht.'],
      ['message', 'Bericht is verplicht.'],
    ])('refuses a missing %s with "%s"', async (field, text) => {
      const body: Record<string, unknown> = message();
      delete body[field];
      expectFailure(tr, await tr.call('send', { body }), 400, text);
    });

    it.each([
      ['name', 'Naam is verplicht.'],
      ['email', 'Email is verplicht.'],
      ['subject', 'Onderwerp is verplicht.'],
      ['message', 'Bericht is verplicht.'],
    ])('refuses a blank %s with "%s"', async (field, text) => {
      expectFailure(tr, await tr.call('send', { body: message({ [field]: '  \n ' }) }), 400, text);
    });

    it('refuses an empty body with "Naam is verplicht."', async () => {
      expectFailure(tr, await tr.call('send', { body: {} }), 400, 'Naam is verplicht.');
    });

    it.each(['anna', 'anna@', 'anna@example', 'anna de boer@example.nl', '@example.nl'])(
      'refuses the e-mail address %j with "Voer een geldig email adres in."',
      async (email) => {
        expectFailure(tr, await tr.call('send', { body: message({ email }) }), 400, INVALID_EMAIL);
      },
    );

    it('refuses a 100 KB message with a 400 (not a 500)', async () => {
      const answer = await tr.call('send', { body: message({ message: 'Lorem ipsum '.repeat(Math.ceil(100_000 / 12)) }) });
      expectFailure(tr, answer, 400, 'Bericht is te lang (maximaal 5000 tekens).');
    });

    it('answers {success:true} to a bot that fills in the hidden website field, but keeps and mails nothing', async () => {
      const answer = await tr.call('send', { body: message({ website: 'https://spam.example' }) });
      expect(answer.status).toBe(200);
      expect(answer.data).toEqual({ success: true });
    });
  });

  describe('mail headers', () => {
    it("queues the mail with Reply-To the visitor's address, so the club's answer reaches them (decision 058)", async () => {
      await tr.call('send', { body: message({ email: ' Anna.de-Boer+kerst@Example.nl ' }) });
      const [mail] = await outbox();
      expect(mail).toMatchObject({ toAddress: DEFAULT_CLUB_EMAIL, replyTo: 'Anna.de-Boer+kerst@Example.nl' });
    });

    it.each([
      'anna@example.nl\r\nBcc: victim@example.com',
      'anna@example.nl\nReply-To: phish@example.com',
      'anna@example.nl,victim@example.com',
      'Anna <anna@example.nl>',
      '"anna"@example.nl',
    ])('refuses the address %j, which would put more than one address in Reply-To, and keeps and mails nothing', async (email) => {
      expectFailure(tr, await tr.call('send', { body: message({ email }) }), 400, INVALID_EMAIL);
      expect(await storedMessages()).toEqual([]);
      expect(await outbox()).toEqual([]);
    });

    it('never queues a subject with a line break (it would be a header injection), refusing it or flattening it', async () => {
      const answer = await tr.call('send', { body: message({ subject: 'Hallo\r\nBcc: victim@example.com' }) });
      if (answer.status === 200) {
        const [mail] = await outbox();
        expect(mail!.subject).not.toMatch(/[\r\n]/);
      } else {
        expect(answer.status).toBe(400);
        expect(await outbox()).toEqual([]);
      }
    });
  });

  describe('rate limit', () => {
    it('allows 5 messages per address in an hour, then answers 429; another address is unaffected', async () => {
      const ip = freshIp();
      for (let i = 0; i < 5; i++) {
        const answer = await tr.call('send', { body: message(), ip });
        expect(answer.status, `message ${i + 1}`).toBe(200);
      }
      expectFailure(tr, await tr.call('send', { body: message(), ip }), 429, TOO_MANY);
      expect(await storedMessages()).toHaveLength(5);
      expect(await outbox()).toHaveLength(5);

      expect((await tr.call('send', { body: message(), ip: freshIp() })).data).toEqual({ success: true });
    });

    it('allows the address again after an hour', async () => {
      const ip = freshIp();
      for (let i = 0; i < 5; i++) await tr.call('send', { body: message(), ip });
      expectFailure(tr, await tr.call('send', { body: message(), ip }), 429, TOO_MANY);
      t.clock.advance(HOUR);
      expect((await tr.call('send', { body: message(), ip })).data).toEqual({ success: true });
    });
  });

  describe('maintenance mode', () => {
    beforeEach(async () => {
      await setSetting('maintenance_mode', true);
    });
    afterEach(async () => {
      await setSetting('maintenance_mode', false);
    });

    it('refuses a visitor with 503 Maintenance and keeps nothing', async () => {
      expectFailure(tr, await tr.call('send', { body: message() }), 503, 'Maintenance');
      expect(await storedMessages()).toEqual([]);
      expect(await outbox()).toEqual([]);
    });

    it('still lets an admin send a message', async () => {
      const answer = await tr.call('send', { body: message(), cookie: adminCookie });
      expect(answer.data).toEqual({ success: true });
      expect(await storedMessages()).toHaveLength(1);
    });
  });
});
