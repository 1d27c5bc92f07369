import { connect } from 'cloudflare:sockets';
import { clubDb, FIRST_CLUB_ID } from '../../src/db/club-db';
import { createExecutionContext, createScheduledController, env, SELF, waitOnExecutionContext } from 'cloudflare:test';
import { eq, like } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openD1Db } from '../../src/db/d1';
import { mailOutbox } from '../../src/db/schema';
import { parseConfig } from '../../src/env';
import { drainOutbox } from '../../src/features/mail/mail-delivery';
import { systemClock } from '../../src/platform/clock';
import { createR2FileStore } from '../../src/platform/files-r2';
import { enqueueMail } from '../../src/platform/mail';
import { createWorkerSmtpTransport } from '../../src/platform/smtp-worker';
import worker from './entry';

const bindings = env as unknown as { DB: Parameters<typeof openD1Db>[0]; MAIL_SINK_URL: string };
const site = 'https://kerst.example';

/**
 * docs/decisions/027 inside workerd: mail queued by a request leaves at once (waitUntil, SMTP over
 * cloudflare:sockets to a real SMTP server on loopback), without a cron run; while SMTP is down it stays
 * queued and the cron's retry delivers it.
 */
async function arrived(needle: string, to?: string, timeoutMs = 5_000): Promise<{ to: string[]; raw: string }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const messages = (await (await fetch(`${bindings.MAIL_SINK_URL}/messages`)).json()) as { to: string[]; raw: string }[];
    // The sink serves every worker test file (each with its own D1): match the recipient too.
    const found = messages.find((m) => m.raw.includes(needle) && (to === undefined || m.to.includes(to)));
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`No mail with ${needle} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  SELF.fetch(`${site}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

describe('mail leaves at once inside workerd', () => {
  it('delivers a contact message and a public order confirmation within 5 seconds, without the cron', async () => {
    // Each mail must arrive within 5 s of its own request (arrived's limit); no scheduled run happens in this test.
    const contact = await post(
      '/contact/send',
      { name: 'Zoë', email: 'zoe@example.nl', subject: 'Bezorging-worker-1', message: 'Bezorgen jullie in Midlum?' },
      { 'cf-connecting-ip': '192.0.2.50' },
    );
    expect(contact.status).toBe(200);
    const mail = await arrived('Subject: Contactformulier: Bezorging-worker-1');
    expect(mail.to).toEqual(['kerstactie@example.nl']);

    const login = await post('/api/account/login', { username: 'admin', password: 'worker-admin-password' }, { 'cf-connecting-ip': '192.0.2.51' });
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
    const tabler = (await (await post('/tablers/create', { name: 'Mail Tabler' }, { cookie })).json()) as { tabler: { id: number } };
    const order = await post(
      '/orders/create',
      {
        tabler_id: tabler.tabler.id,
        name: 'Sjoerd',
        email: 'sjoerd@example.nl',
        phone: '06 12345678',
        address: 'Kade 1',
        postal_code: '8861 AA',
        city: 'Harlingen',
        amount: 2,
      },
      { 'cf-connecting-ip': '192.0.2.52' },
    );
    const { order_reference } = (await order.json()) as { order_reference: string };
    const confirmation = await arrived(`Subject: Bevestiging van je bestelling ${order_reference}`, 'sjoerd@example.nl');
    expect(confirmation.to).toEqual(['sjoerd@example.nl']);
  });

  it('keeps a message queued while SMTP is down, and the cron delivers it once the server is back', async () => {
    await fetch(`${bindings.MAIL_SINK_URL}/stop`, { method: 'POST' });
    try {
      const contact = await post(
        '/contact/send',
        { name: 'Zoë', email: 'zoe@example.nl', subject: 'Bezorging-worker-2', message: 'Tweede vraag' },
        { 'cf-connecting-ip': '192.0.2.53' },
      );
      expect(contact.status).toBe(200);
      const db = openD1Db(bindings.DB);
      const deadline = Date.now() + 5_000;
      let row: typeof mailOutbox.$inferSelect | undefined;
      for (;;) {
        [row] = await db.select().from(mailOutbox).where(eq(mailOutbox.subject, 'Contactformulier: Bezorging-worker-2'));
        if (row && row.attempts > 0) break;
        if (Date.now() > deadline) throw new Error(`still ${row?.status} after 5 s`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(row).toMatchObject({ status: 'queued', attempts: 1 });
      expect(row!.lastError).not.toBeNull();
      await fetch(`${bindings.MAIL_SINK_URL}/start`, { method: 'POST' });
      // The retry is due after its back-off; bring it forward instead of waiting a minute.
      await db.update(mailOutbox).set({ nextAttemptAt: 0 }).where(eq(mailOutbox.id, row!.id));
      const ctx = createExecutionContext();
      await worker.scheduled(createScheduledController({ cron: '*/5 * * * *', scheduledTime: Date.now() }) as never, env as never, ctx as never);
      await waitOnExecutionContext(ctx);
      await arrived('Bezorging-worker-2');
      const [after] = await db.select().from(mailOutbox).where(eq(mailOutbox.id, row!.id));
      expect(after).toMatchObject({ status: 'sent', attempts: 2 });
    } finally {
      await fetch(`${bindings.MAIL_SINK_URL}/start`, { method: 'POST' });
    }
  });
});

/** docs/decisions/053 inside workerd: the queue drains in the request that filled it, and the cron continues. */
describe('the outbox drains inside workerd', () => {
  const db = () => clubDb(openD1Db(bindings.DB), FIRST_CLUB_ID);

  async function queue(count: number, label: string) {
    for (let i = 0; i < count; i++) {
      await enqueueMail(db(), systemClock, { kind: 'test', to: `${label}-${i}@example.nl`, subject: `Drain ${label} ${i}`, text: 'Hallo' });
    }
  }

  async function received(label: string): Promise<string[]> {
    const messages = (await (await fetch(`${bindings.MAIL_SINK_URL}/messages`)).json()) as { to: string[] }[];
    return messages.flatMap((m) => m.to).filter((to) => to.startsWith(`${label}-`));
  }

  async function waitForAll(label: string, count: number) {
    const deadline = Date.now() + 15_000;
    while ((await received(label)).length < count) {
      if (Date.now() > deadline) throw new Error(`${(await received(label)).length} of ${count} arrived`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it('delivers what else is due after a request’s own mail, in that request’s waitUntil, each message once', async () => {
    await queue(40, 'verzoek');
    const contact = await post(
      '/contact/send',
      { name: 'Zoë', email: 'zoe@example.nl', subject: 'Bezorging-worker-drain', message: 'Derde vraag' },
      { 'cf-connecting-ip': '192.0.2.60' },
    );
    expect(contact.status).toBe(200);
    await waitForAll('verzoek', 40);
    const recipients = await received('verzoek');
    expect(new Set(recipients).size).toBe(40);
    expect(recipients).toHaveLength(40);
  });

  it('stops a run at MAIL_PER_INVOCATION messages and the cron continues where it stopped', async () => {
    await queue(45, 'cron');
    const config = { ...parseConfig({ ...env }), mailPerInvocation: 20 };
    const deps = {
      config,
      db: db(),
      files: createR2FileStore((env as unknown as { APKS: Parameters<typeof createR2FileStore>[0] }).APKS),
      clock: systemClock,
      mailTransport: createWorkerSmtpTransport(config.smtpUrl!, connect),
      log: { info: () => undefined, error: () => undefined },
    };
    expect(await drainOutbox(deps, 'cron')).toEqual({ sent: 20, failed: 0 });
    expect(await received('cron')).toHaveLength(20);

    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: '*/5 * * * *', scheduledTime: Date.now() }) as never, env as never, ctx as never);
    await waitOnExecutionContext(ctx);
    const recipients = await received('cron');
    expect(recipients).toHaveLength(45);
    expect(new Set(recipients).size).toBe(45);
    const rows = await db().select({ status: mailOutbox.status }).from(mailOutbox).where(like(mailOutbox.subject, 'Drain cron %'));
    expect(rows.filter((r) => r.status === 'sent')).toHaveLength(45);
  });
});
