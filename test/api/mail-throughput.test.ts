import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../src/db/schema';
import { drainOutbox } from '../../src/features/mail/mail-delivery';
import { deliverDueMail, enqueueMail } from '../../src/platform/mail';
import { SendPacer } from '../../src/platform/send-pacer';
import { createNodeSmtpTransport } from '../../src/platform/smtp-node';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import { createTestApp, type TestApp } from '../support/test-app';

/**
 * docs/decisions/053 on Node: a queue of 2,000 messages goes to a real SMTP server on loopback in one drain
 * (not 20 per timer tick), each message exactly once, over a pool of connections, at the configured rate.
 * How fast that is on this machine is `npm run bench`'s business; here the rate is checked on a clock
 * that moves only when the pacer waits.
 */

const COUNT = 2_000;
let t: TestApp;
let sink: SmtpSink;

beforeEach(async () => {
  t = await createTestApp({ env: { MAIL_RATE_PER_MINUTE: '100000', MAIL_CONNECTIONS: '4' } });
  sink = await startSmtpSink();
  t.deps.mailTransport = createNodeSmtpTransport(sink.url, {}, t.deps.config.mailConnections);
});

afterEach(async () => {
  t.deps.mailTransport?.close?.();
  await sink.stop();
  expect(t.errors).toEqual([]);
  await t.close();
});

async function queue(count: number, label: string) {
  for (let i = 0; i < count; i++) {
    await enqueueMail(t.db, t.clock, { kind: 'test', to: `lid-${label}-${i}@example.nl`, subject: `Nieuws ${label} ${i}`, text: `Bericht ${i}` });
  }
}

/** Every recipient got exactly one message, and every row says so. */
async function expectEachDeliveredOnce(count: number, label: string) {
  const recipients = sink.messages.flatMap((m) => m.to).filter((to) => to.startsWith(`lid-${label}-`));
  expect(recipients).toHaveLength(count);
  expect(new Set(recipients).size).toBe(count);
  const rows = await t.db.select({ status: mailOutbox.status, attempts: mailOutbox.attempts }).from(mailOutbox);
  expect(rows.filter((r) => r.status === 'sent' && r.attempts === 1)).toHaveLength(rows.length);
}

describe('draining the outbox (docs/decisions/053)', () => {
  it('delivers 2,000 queued messages in one drain, each exactly once', { timeout: 180_000 }, async () => {
    await queue(COUNT, 'a');
    expect(await drainOutbox(t.deps, 'timer')).toEqual({ sent: COUNT, failed: 0 });
    await expectEachDeliveredOnce(COUNT, 'a');
  });

  it('spaces the starts of 2,000 sends 200 ms apart at 300 a minute: all gone after 6 min 40 s of pacer time', { timeout: 180_000 }, async () => {
    await queue(COUNT, 'b');
    // A clock that moves only when the pacer waits, to the moment it wakes.
    let at = 0;
    const timer = {
      now: () => at,
      sleep: async (ms: number) => {
        at += ms;
      },
    };
    const transport = t.deps.mailTransport!;
    const report = await deliverDueMail({
      db: t.db,
      files: t.deps.files,
      clock: t.clock,
      transport,
      from: t.deps.config.mailFrom,
      pacer: new SendPacer(300, timer),
      connections: 4,
    });
    expect(report).toEqual({ sent: COUNT, failed: 0 });
    expect(at).toBe((COUNT - 1) * 200);
    await expectEachDeliveredOnce(COUNT, 'b');
  });

  it('lets a timer run and requests join one drain: nothing is sent twice', { timeout: 60_000 }, async () => {
    await queue(300, 'c');
    const runs = await Promise.all([drainOutbox(t.deps, 'timer'), drainOutbox(t.deps, 'request'), drainOutbox(t.deps, 'timer')]);
    // One drain ran; the others joined it and report its outcome.
    expect(runs).toEqual([runs[0], runs[0], runs[0]]);
    expect(runs[0]).toEqual({ sent: 300, failed: 0 });
    await expectEachDeliveredOnce(300, 'c');
  });

  it('delivers what else is due after a request’s own mail went, without a timer run', { timeout: 60_000 }, async () => {
    await queue(200, 'd');
    const r = await t.request('/contact/send', {
      body: { name: 'Zoë', email: 'zoe@example.nl', subject: 'Vraag over bezorging', message: 'Bezorgen jullie ook in Midlum?' },
      headers: { 'x-test-client-ip': '10.9.8.7' },
    });
    expect(r.json).toEqual({ success: true });
    await sink.waitFor(201, 30_000);
    // Let the drain write its last rows.
    const deadline = Date.now() + 10_000;
    while ((await t.db.select().from(mailOutbox).where(eq(mailOutbox.status, 'sent'))).length < 201) {
      if (Date.now() > deadline) throw new Error('not every row was marked sent');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await expectEachDeliveredOnce(200, 'd');
    expect(sink.messages.filter((m) => m.to.includes('kerstactie@example.nl'))).toHaveLength(1);
  });
});
