import { SELF } from 'cloudflare:test';
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { adminCookie, SITE } from './sign-in';

/**
 * Decision 058 inside workerd, with mail sent over cloudflare:sockets to the real SMTP sink on
 * loopback: Reply-To on the contact mail (the visitor) and on the club's mails (club_email), an admin's
 * invitation with its set-password link, and mails to a user in the user's language.
 */

const bindings = env as unknown as { MAIL_SINK_URL: string };

interface Arrived {
  to: string[];
  raw: string;
}

async function messages(): Promise<Arrived[]> {
  return (await (await fetch(`${bindings.MAIL_SINK_URL}/messages`)).json()) as Arrived[];
}

/**
 * The message to `to` whose headers hold `needle` (a string), or that `needle` picks, once it has arrived
 * (the sink serves every worker test file).
 */
async function arrived(to: string, needle: string | ((m: Arrived) => boolean), timeoutMs = 5_000): Promise<Arrived> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await messages()).find((m) => m.to.includes(to) && (typeof needle === 'string' ? headersOf(m).includes(needle) : needle(m)));
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`No mail to ${to} with ${needle} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const headersOf = (m: Arrived) => m.raw.slice(0, m.raw.indexOf('\r\n\r\n'));
const headerLines = (m: Arrived, name: string) =>
  headersOf(m)
    .split('\r\n')
    .filter((line) => line.toLowerCase().startsWith(`${name.toLowerCase()}:`));

/** The text/plain part, which the Worker's MIME writer sends as base64. */
function textOf(m: Arrived): string {
  const part = /Content-Type: text\/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n([A-Za-z0-9+/=\r\n]+)/.exec(m.raw);
  if (!part) throw new Error('no text part');
  const bytes = Uint8Array.from(atob(part[1]!.replace(/\s+/g, '')), (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  SELF.fetch(`${SITE}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

describe('Reply-To inside workerd (decision 058)', () => {
  it("answers the contact mail to the visitor and the order confirmation to the club's address", async () => {
    const contact = await post(
      '/contact/send',
      { name: 'Zoë', email: 'zoe.worker@example.nl', subject: 'Antwoord-aan-worker', message: 'Waar kan ik ophalen?' },
      { 'cf-connecting-ip': '192.0.2.160' },
    );
    expect(contact.status).toBe(200);
    const mail = await arrived('kerstactie@example.nl', 'Subject: Contactformulier: Antwoord-aan-worker');
    expect(headerLines(mail, 'Reply-To')).toEqual(['Reply-To: zoe.worker@example.nl']);

    const cookie = await adminCookie('192.0.2.161');
    const tabler = (await (await post('/tablers/create', { name: 'Reply Tabler' }, { cookie })).json()) as { tabler: { id: number } };
    const order = await post(
      '/orders/create',
      {
        tabler_id: tabler.tabler.id,
        name: 'Sjoerd',
        email: 'sjoerd.reply@example.nl',
        phone: '06 12345678',
        address: 'Kade 1',
        postal_code: '8861 AA',
        city: 'Harlingen',
        amount: 2,
      },
      { 'cf-connecting-ip': '192.0.2.162' },
    );
    const { order_reference } = (await order.json()) as { order_reference: string };
    const confirmation = await arrived('sjoerd.reply@example.nl', `Subject: Bevestiging van je bestelling ${order_reference}`);
    expect(headerLines(confirmation, 'Reply-To')).toEqual(['Reply-To: kerstactie@example.nl']);
  });

  it('refuses a contact address that would add a header, and nothing is sent', async () => {
    const before = (await messages()).length;
    const answer = await post(
      '/contact/send',
      { name: 'Mallory', email: 'm@example.nl\r\nBcc: victim@example.com', subject: 'Injectie-worker', message: 'Hallo' },
      { 'cf-connecting-ip': '192.0.2.163' },
    );
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ success: false, error: 'Voer een geldig email adres in.', code: 'EMAIL_INVALID' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await messages()).slice(before).filter((m) => m.raw.includes('Injectie-worker'))).toEqual([]);
  });
});

describe('an invited user and mails in the user’s language inside workerd', () => {
  it('mails a Dutch-speaking admin’s invitee a Dutch set-password link on PUBLIC_URL that then sets the password', async () => {
    const cookie = await adminCookie('192.0.2.170');
    expect((await post('/api/account/locale', { locale: 'nl' }, { cookie })).status).toBe(200);
    try {
      const invite = await post('/api/users/invite', { username: 'penning_worker', email: 'penning.worker@example.nl' }, { cookie });
      expect(invite.status).toBe(200);
      const { user_id } = (await invite.json()) as { user_id: number };
      expect(user_id).toBeGreaterThan(0);

      const mail = await arrived('penning.worker@example.nl', 'Subject: Je account op de site van');
      expect(headerLines(mail, 'Reply-To')).toEqual(['Reply-To: kerstactie@example.nl']);
      const text = textOf(mail);
      expect(text).toContain('Hallo penning_worker,\r\n\r\nadmin heeft een account voor je aangemaakt');
      expect(text).toContain('De link werkt één keer en is 7 dagen geldig.');
      const token = /https:\/\/kerst\.example\/reset-password\?token=([A-Za-z0-9_-]{43})\r\n/.exec(text)?.[1];
      expect(token).toBeDefined();

      expect((await post('/api/account/reset', { token, new_password: 'kerst-in-workerd' })).status).toBe(200);
      const login = await post('/api/account/login', { username: 'penning_worker', password: 'kerst-in-workerd' }, { 'cf-connecting-ip': '192.0.2.171' });
      expect(await login.json()).toMatchObject({ success: true, user: { username: 'penning_worker' } });
    } finally {
      await post('/api/account/locale', { locale: 'en' }, { cookie });
    }
  });

  it('sends the reset mail in Dutch to a user who chose Nederlands', async () => {
    const cookie = await adminCookie('192.0.2.172');
    const invite = await post('/api/users/invite', { username: 'nl_reset_worker', email: 'nl.reset.worker@example.nl' }, { cookie });
    expect(invite.status).toBe(200);
    const first = await arrived('nl.reset.worker@example.nl', 'Subject: Your account on the site of');
    const token = /reset-password\?token=([A-Za-z0-9_-]{43})/.exec(textOf(first))![1];
    await post('/api/account/reset', { token, new_password: 'eerste-wachtwoord' });
    const login = await post('/api/account/login', { username: 'nl_reset_worker', password: 'eerste-wachtwoord' }, { 'cf-connecting-ip': '192.0.2.173' });
    const userCookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
    expect((await post('/api/account/locale', { locale: 'nl' }, { cookie: userCookie })).status).toBe(200);

    expect((await post('/api/account/forgot', { login: 'nl_reset_worker' }, { 'cf-connecting-ip': '192.0.2.174' })).status).toBe(200);
    // The subject has an en dash, so it travels encoded: find the mail by its text.
    const reset = await arrived('nl.reset.worker@example.nl', (m) => textOf(m).includes('Er is gevraagd om een nieuw wachtwoord'));
    expect(textOf(reset)).toMatch(/^Hallo nl_reset_worker,\r\n\r\nEr is gevraagd om een nieuw wachtwoord/);
  });
});
