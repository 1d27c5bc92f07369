import { mkdtempSync, rmSync } from 'node:fs';
import { clubDb, FIRST_CLUB_ID } from '../db/club-db';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseMime, startSmtpSink } from '../../test/support/smtp-sink';
import type { ClubDb } from '../db/client';
import { migrateLibsqlDb, openLibsqlDb } from '../db/libsql';
import { mailOutbox, settings } from '../db/schema';
import type { Clock } from './clock';
import { createDiskFileStore } from './files-disk';
import type { FileStore } from './files';
import { createNodeSmtpTransport } from './smtp-node';
import { SendPacer } from './send-pacer';
import {
  deliverDueMail,
  enqueueMail,
  enqueueMailStatement,
  enqueueMailUnlessWaiting,
  requeueInterruptedMail,
  MAX_MAIL_ATTEMPTS,
  retryDelayMs,
  type MailTransport,
  type OutgoingMail,
  type TransportMessage,
} from './mail';

const MINUTE = 60_000;
const FROM = 'Kerstactie <kerst@example.nl>';

class ManualClock implements Clock {
  private ms = Date.parse('2026-12-01T09:00:00.000Z');
  now() {
    return new Date(this.ms);
  }
  advance(ms: number) {
    this.ms += ms;
  }
}

/** Stands in for the SMTP server (outside our code): records what it accepted, or refuses. */
class RecordingTransport implements MailTransport {
  sent: TransportMessage[] = [];
  failWith: string | null = null;
  async send(message: TransportMessage) {
    if (this.failWith) throw new Error(this.failWith);
    this.sent.push(message);
  }
}

/** What every delivery here shares: one connection, and a pacer that never waits (the pace has its own tests). */
function delivery() {
  return { db, files, clock, pacer: new SendPacer(Number.POSITIVE_INFINITY), connections: 1 };
}

let dir: string;
let db: ClubDb;
let closeDb: () => void;
let files: FileStore;
let clock: ManualClock;

const invoiceMail: OutgoingMail = {
  kind: 'invoice',
  to: 'klant@example.nl',
  subject: 'Factuur F2026-0001',
  text: 'Beste klant, in de bijlage vindt u de factuur.',
  html: '<p>Beste klant</p>',
  relatedRef: 'order:12',
};

async function rowOf(id: number) {
  const [row] = await db.select().from(mailOutbox).where(eq(mailOutbox.id, id));
  return row!;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kerstactie-mail-'));
  const handle = openLibsqlDb(`file:${join(dir, 'mail.db')}`);
  db = clubDb(handle.db, FIRST_CLUB_ID);
  closeDb = () => handle.client.close();
  await migrateLibsqlDb(handle.db, join(process.cwd(), 'drizzle'));
  files = createDiskFileStore(join(dir, 'files'));
});

afterAll(() => {
  closeDb();
  rmSync(dir, { recursive: true, force: true });
});

beforeEach(async () => {
  await db.delete(mailOutbox);
  clock = new ManualClock();
});

describe('enqueueMailUnlessWaiting', () => {
  const rows = () => db.select().from(mailOutbox).orderBy(asc(mailOutbox.id));
  const invoiceFor = (relatedRef: string) => ({ ...invoiceMail, relatedRef });

  it('queues the message like enqueueMail when none for its reference waits', async () => {
    await enqueueMailUnlessWaiting(db, clock, { ...invoiceFor('order:12'), to: 'klant@example.nl\r\nBcc: x@example.nl' });
    const [row] = await rows();
    expect(row).toMatchObject({
      kind: 'invoice',
      toAddress: 'klant@example.nl Bcc: x@example.nl',
      subject: 'Factuur F2026-0001',
      textBody: 'Beste klant, in de bijlage vindt u de factuur.',
      htmlBody: '<p>Beste klant</p>',
      attachments: '[]',
      relatedRef: 'order:12',
      status: 'queued',
      attempts: 0,
      nextAttemptAt: clock.now().getTime(),
      createdAt: clock.now().toISOString(),
    });
  });

  it('queues one message for many calls at the same moment, and one per reference', async () => {
    await Promise.all([1, 2, 3, 4, 5].map(() => enqueueMailUnlessWaiting(db, clock, invoiceFor('order:12'))));
    await enqueueMailUnlessWaiting(db, clock, invoiceFor('order:13'));
    expect((await rows()).map((row) => row.relatedRef)).toEqual(['order:12', 'order:13']);
  });

  it('waits for a message being sent, and queues a new one once the last was sent or failed for good', async () => {
    await enqueueMailUnlessWaiting(db, clock, invoiceFor('order:12'));
    const [first] = await rows();
    await db.update(mailOutbox).set({ status: 'sending' }).where(eq(mailOutbox.id, first!.id));
    await enqueueMailUnlessWaiting(db, clock, invoiceFor('order:12'));
    expect(await rows()).toHaveLength(1);
    await db.update(mailOutbox).set({ status: 'sent' }).where(eq(mailOutbox.id, first!.id));
    await enqueueMailUnlessWaiting(db, clock, invoiceFor('order:12'));
    const [, second] = await rows();
    expect(second).toMatchObject({ relatedRef: 'order:12', status: 'queued' });
    await db.update(mailOutbox).set({ status: 'failed' }).where(eq(mailOutbox.id, second!.id));
    await enqueueMailUnlessWaiting(db, clock, invoiceFor('order:12'));
    expect((await rows()).map((row) => row.status)).toEqual(['sent', 'failed', 'queued']);
  });

  it('does not count a waiting message of another kind', async () => {
    await enqueueMail(db, clock, { ...invoiceMail, kind: 'order-confirmation', relatedRef: 'order:12' });
    await enqueueMailUnlessWaiting(db, clock, invoiceFor('order:12'));
    expect((await rows()).map((row) => row.kind)).toEqual(['order-confirmation', 'invoice']);
  });
});

describe('enqueueMail', () => {
  it('writes the message to the outbox as queued and due now', async () => {
    const id = await enqueueMail(db, clock, invoiceMail);
    expect(await rowOf(id)).toEqual({
      clubId: 1,
      id,
      kind: 'invoice',
      toAddress: 'klant@example.nl',
      subject: 'Factuur F2026-0001',
      textBody: 'Beste klant, in de bijlage vindt u de factuur.',
      htmlBody: '<p>Beste klant</p>',
      attachments: '[]',
      relatedRef: 'order:12',
      // No club_email in this database's settings: no Reply-To.
      replyTo: null,
      status: 'queued',
      attempts: 0,
      lastError: null,
      nextAttemptAt: clock.now().getTime(),
      createdAt: '2026-12-01T09:00:00.000Z',
      sentAt: null,
    });
  });

  it('stores attachment references, not their content', async () => {
    const id = await enqueueMail(db, clock, {
      ...invoiceMail,
      attachments: [{ filename: 'factuur.pdf', contentType: 'application/pdf', fileKey: 'invoices/F2026-0001.pdf' }],
    });
    expect(JSON.parse((await rowOf(id)).attachments)).toEqual([
      { filename: 'factuur.pdf', contentType: 'application/pdf', fileKey: 'invoices/F2026-0001.pdf' },
    ]);
  });
});

describe('Reply-To (docs/decisions/058)', () => {
  const setClubEmail = async (value: string | null) => {
    await db.delete(settings).where(eq(settings.key, 'club_email'));
    if (value !== null) await db.insert(settings).values({ key: 'club_email', value, type: 'string', updatedAt: clock.now().toISOString() });
  };
  afterAll(() => setClubEmail(null));

  it("stores the club's address with a message that names none, as it was when queued, through every way of queueing", async () => {
    await setClubEmail('penningmeester@tafelronde.nl');
    await enqueueMail(db, clock, invoiceMail);
    await enqueueMailUnlessWaiting(db, clock, { ...invoiceMail, relatedRef: 'order:77' });
    await db.batch([enqueueMailStatement(db, clock, { ...invoiceMail, kind: 'order-confirmation', subject: sql`${'Bevestiging '} || ${'KP-2026-0001'}` })]);
    await setClubEmail('nieuw@tafelronde.nl');
    const rows = await db.select({ kind: mailOutbox.kind, replyTo: mailOutbox.replyTo }).from(mailOutbox).orderBy(asc(mailOutbox.id));
    expect(rows).toEqual([
      { kind: 'invoice', replyTo: 'penningmeester@tafelronde.nl' },
      { kind: 'invoice', replyTo: 'penningmeester@tafelronde.nl' },
      { kind: 'order-confirmation', replyTo: 'penningmeester@tafelronde.nl' },
    ]);
  });

  it('stores the Reply-To a message names (the contact mail: the visitor), whatever club_email is', async () => {
    await setClubEmail('kerstactie@tafelronde.nl');
    const id = await enqueueMail(db, clock, { kind: 'contact', to: 'kerstactie@tafelronde.nl', replyTo: 'zoe@example.nl', subject: 'Vraag', text: 'Hallo' });
    expect((await rowOf(id)).replyTo).toBe('zoe@example.nl');
  });

  it('gives no Reply-To rather than a broken one when club_email is not one plain address', async () => {
    const broken = [
      '',
      'kerstactie',
      'a@b@c.nl',
      'info@club.nl, x@evil.example',
      'Club <info@club.nl>',
      'info@club.nl\r\nBcc: x@evil.example',
      ' info@club.nl',
    ];
    for (const value of broken) {
      await setClubEmail(value);
      const id = await enqueueMail(db, clock, invoiceMail);
      expect((await rowOf(id)).replyTo, JSON.stringify(value)).toBeNull();
    }
  });

  it('refuses a named Reply-To with a line break, a second address or a display name, queueing nothing', async () => {
    for (const replyTo of ['zoe@example.nl\r\nBcc: x@evil.example', 'zoe@example.nl\nX-Evil: 1', 'zoe@example.nl,x@evil.example', 'Zoë <zoe@example.nl>']) {
      await expect(enqueueMail(db, clock, { ...invoiceMail, replyTo })).rejects.toThrow('Invalid Reply-To address');
      expect(() => enqueueMailStatement(db, clock, { ...invoiceMail, replyTo })).toThrow('Invalid Reply-To address');
    }
    expect(await db.select().from(mailOutbox)).toEqual([]);
  });

  it('hands the stored Reply-To to the transport, and refuses to send a row whose Reply-To was tampered with', async () => {
    const good = await enqueueMail(db, clock, { ...invoiceMail, replyTo: 'zoe@example.nl' });
    const transport = new RecordingTransport();
    await deliverDueMail({ ...delivery(), transport, from: FROM });
    expect(transport.sent.map((m) => m.replyTo)).toEqual(['zoe@example.nl']);
    expect((await rowOf(good)).status).toBe('sent');

    const bad = await enqueueMail(db, clock, invoiceMail);
    await db.update(mailOutbox).set({ replyTo: 'zoe@example.nl\r\nBcc: x@evil.example' }).where(eq(mailOutbox.id, bad));
    expect(await deliverDueMail({ ...delivery(), transport, from: FROM })).toEqual({ sent: 0, failed: 1 });
    expect(transport.sent).toHaveLength(1);
    expect(await rowOf(bad)).toMatchObject({ status: 'queued', lastError: expect.stringContaining('Invalid Reply-To address') });
  });
});

describe('deliverDueMail', () => {
  it('touches nothing when there is no transport (outbox only)', async () => {
    const id = await enqueueMail(db, clock, invoiceMail);
    const before = await rowOf(id);
    let called = false;
    const report = await deliverDueMail({
      ...delivery(),
      transport: null,
      from: FROM,
      onDelivered: async () => {
        called = true;
      },
    });
    expect(report).toEqual({ sent: 0, failed: 0 });
    expect(await rowOf(id)).toEqual(before);
    expect(called).toBe(false);
  });

  it('sends a due message, marks it sent with the time, and reports its relatedRef as delivered', async () => {
    const id = await enqueueMail(db, clock, invoiceMail);
    const transport = new RecordingTransport();
    const delivered: string[] = [];
    clock.advance(5_000);
    const report = await deliverDueMail({ ...delivery(), transport, from: FROM, onDelivered: async (ref) => void delivered.push(ref) });
    expect(report).toEqual({ sent: 1, failed: 0 });
    expect(transport.sent).toEqual([
      {
        from: FROM,
        to: 'klant@example.nl',
        subject: 'Factuur F2026-0001',
        text: 'Beste klant, in de bijlage vindt u de factuur.',
        html: '<p>Beste klant</p>',
        attachments: [],
      },
    ]);
    expect(await rowOf(id)).toMatchObject({ status: 'sent', attempts: 1, lastError: null, sentAt: '2026-12-01T09:00:05.000Z' });
    expect(delivered).toEqual(['order:12']);

    // Sent is final: a later run sends nothing again.
    clock.advance(3 * 60 * MINUTE);
    expect(await deliverDueMail({ ...delivery(), transport, from: FROM })).toEqual({ sent: 0, failed: 0 });
    expect(transport.sent).toHaveLength(1);
  });

  it('does not call onDelivered for a message without relatedRef, and sends no html part when there is none', async () => {
    await enqueueMail(db, clock, { kind: 'contact', to: 'club@example.nl', subject: 'Vraag', text: 'Hallo' });
    const transport = new RecordingTransport();
    const delivered: string[] = [];
    await deliverDueMail({ ...delivery(), transport, from: FROM, onDelivered: async (ref) => void delivered.push(ref) });
    expect(delivered).toEqual([]);
    expect(transport.sent[0]).toEqual({ from: FROM, to: 'club@example.nl', subject: 'Vraag', text: 'Hallo', attachments: [] });
  });

  it('reads attachments from the file store and sends their bytes', async () => {
    const pdf = new TextEncoder().encode('%PDF-1.7 factuur');
    await files.put('invoices/F2026-0001.pdf', pdf);
    await enqueueMail(db, clock, {
      ...invoiceMail,
      attachments: [{ filename: 'factuur-F2026-0001.pdf', contentType: 'application/pdf', fileKey: 'invoices/F2026-0001.pdf' }],
    });
    const transport = new RecordingTransport();
    await deliverDueMail({ ...delivery(), transport, from: FROM });
    expect(transport.sent[0]?.attachments).toEqual([{ filename: 'factuur-F2026-0001.pdf', contentType: 'application/pdf', content: pdf }]);
  });

  it('passes an inline image on with its content id, and ordinary attachments without one', async () => {
    const pdf = new TextEncoder().encode('%PDF-1.7 factuur');
    const png = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 1, 2, 3);
    await files.put('invoices/F2026-0001.pdf', pdf);
    await files.put('invoices/F2026-0001-qr.png', png);
    const id = await enqueueMail(db, clock, {
      ...invoiceMail,
      html: '<p>Beste klant</p><img src="cid:betaal-qr" alt="Betaal-QR">',
      attachments: [
        { filename: 'factuur-F2026-0001.pdf', contentType: 'application/pdf', fileKey: 'invoices/F2026-0001.pdf' },
        { filename: 'betaal-qr.png', contentType: 'image/png', fileKey: 'invoices/F2026-0001-qr.png', contentId: 'betaal-qr' },
      ],
    });
    expect(JSON.parse((await rowOf(id)).attachments)).toEqual([
      { filename: 'factuur-F2026-0001.pdf', contentType: 'application/pdf', fileKey: 'invoices/F2026-0001.pdf' },
      { filename: 'betaal-qr.png', contentType: 'image/png', fileKey: 'invoices/F2026-0001-qr.png', contentId: 'betaal-qr' },
    ]);
    const transport = new RecordingTransport();
    await deliverDueMail({ ...delivery(), transport, from: FROM });
    expect(transport.sent[0]?.attachments).toEqual([
      { filename: 'factuur-F2026-0001.pdf', contentType: 'application/pdf', content: pdf },
      { filename: 'betaal-qr.png', contentType: 'image/png', content: png, contentId: 'betaal-qr' },
    ]);
  });

  it('delivers an inline image through nodemailer beside the HTML, with its Content-ID', async () => {
    const sink = await startSmtpSink();
    try {
      const png = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 9, 8, 7);
      await files.put('invoices/qr.png', png);
      await enqueueMail(db, clock, {
        ...invoiceMail,
        html: '<img src="cid:betaal-qr">',
        attachments: [{ filename: 'betaal-qr.png', contentType: 'image/png', fileKey: 'invoices/qr.png', contentId: 'betaal-qr' }],
      });
      expect(await deliverDueMail({ ...delivery(), transport: createNodeSmtpTransport(sink.url), from: FROM })).toEqual({ sent: 1, failed: 0 });
      const parsed = parseMime((await sink.waitFor(1))[0]!.raw);
      // nodemailer nests it as alternative → [text, related → [html, image]]: the image sits with the HTML.
      expect(parsed.type).toBe('multipart/alternative');
      expect(parsed.parts.map((p) => p.type)).toEqual(['text/plain', 'multipart/related']);
      const related = parsed.parts[1]!;
      expect(related.parts.map((p) => p.type)).toEqual(['text/html', 'image/png']);
      const image = related.parts[1]!;
      expect(image.headers.get('content-id')).toBe('<betaal-qr>');
      expect(image.headers.get('content-disposition')).toMatch(/^inline; filename=("?)betaal-qr\.png\1$/);
      expect(Buffer.from(image.body).equals(Buffer.from(png))).toBe(true);
    } finally {
      await sink.stop();
    }
  });

  it('keeps a message whose attachment is missing queued, with the reason, and sends nothing', async () => {
    const id = await enqueueMail(db, clock, {
      ...invoiceMail,
      attachments: [{ filename: 'weg.pdf', contentType: 'application/pdf', fileKey: 'invoices/missing.pdf' }],
    });
    const transport = new RecordingTransport();
    const delivered: string[] = [];
    const report = await deliverDueMail({ ...delivery(), transport, from: FROM, onDelivered: async (ref) => void delivered.push(ref) });
    expect(report).toEqual({ sent: 0, failed: 1 });
    expect(transport.sent).toEqual([]);
    expect(delivered).toEqual([]);
    expect(await rowOf(id)).toMatchObject({ status: 'queued', attempts: 1, lastError: 'Attachment weg.pdf is missing from storage' });
  });

  it('keeps a refused message queued with attempts 1, the error, and the next attempt one minute later', async () => {
    const id = await enqueueMail(db, clock, invoiceMail);
    const transport = new RecordingTransport();
    transport.failWith = '451 4.7.1 Try again later';
    const delivered: string[] = [];
    const report = await deliverDueMail({ ...delivery(), transport, from: FROM, onDelivered: async (ref) => void delivered.push(ref) });
    expect(report).toEqual({ sent: 0, failed: 1 });
    expect(await rowOf(id)).toMatchObject({
      status: 'queued',
      attempts: 1,
      lastError: '451 4.7.1 Try again later',
      nextAttemptAt: clock.now().getTime() + MINUTE,
      sentAt: null,
    });
    expect(delivered).toEqual([]);
  });

  it('does not retry before the back-off has passed, then retries and succeeds', async () => {
    const id = await enqueueMail(db, clock, invoiceMail);
    const transport = new RecordingTransport();
    transport.failWith = 'connection refused';
    await deliverDueMail({ ...delivery(), transport, from: FROM });

    transport.failWith = null;
    clock.advance(MINUTE - 1);
    expect(await deliverDueMail({ ...delivery(), transport, from: FROM })).toEqual({ sent: 0, failed: 0 });
    expect(transport.sent).toEqual([]);

    clock.advance(1);
    expect(await deliverDueMail({ ...delivery(), transport, from: FROM })).toEqual({ sent: 1, failed: 0 });
    expect(await rowOf(id)).toMatchObject({ status: 'sent', attempts: 2, lastError: null });
  });

  it('doubles the wait after each failure and gives up as failed after MAX_MAIL_ATTEMPTS attempts', async () => {
    const id = await enqueueMail(db, clock, invoiceMail);
    const transport = new RecordingTransport();
    transport.failWith = 'mailbox unavailable';
    for (let attempt = 1; attempt <= MAX_MAIL_ATTEMPTS; attempt++) {
      expect(await deliverDueMail({ ...delivery(), transport, from: FROM })).toEqual({ sent: 0, failed: 1 });
      const row = await rowOf(id);
      expect(row.attempts).toBe(attempt);
      expect(row.status).toBe(attempt < MAX_MAIL_ATTEMPTS ? 'queued' : 'failed');
      expect(row.nextAttemptAt - clock.now().getTime()).toBe(retryDelayMs(attempt));
      clock.advance(retryDelayMs(attempt));
    }
    // A failed message stays visible and is never tried again.
    transport.failWith = null;
    clock.advance(24 * 60 * MINUTE);
    expect(await deliverDueMail({ ...delivery(), transport, from: FROM })).toEqual({ sent: 0, failed: 0 });
    expect(transport.sent).toEqual([]);
    expect((await rowOf(id)).lastError).toBe('mailbox unavailable');
  });

  it('picks up a message left "sending" by a crashed delivery only after its ten-minute lease', async () => {
    const id = await enqueueMail(db, clock, invoiceMail);
    await db.update(mailOutbox).set({ status: 'sending', nextAttemptAt: clock.now().getTime() }).where(eq(mailOutbox.id, id));
    const transport = new RecordingTransport();
    clock.advance(10 * MINUTE - 1);
    expect(await deliverDueMail({ ...delivery(), transport, from: FROM })).toEqual({ sent: 0, failed: 0 });
    clock.advance(1);
    expect(await deliverDueMail({ ...delivery(), transport, from: FROM })).toEqual({ sent: 1, failed: 0 });
    expect((await rowOf(id)).status).toBe('sent');
  });

  it('delivers the oldest due messages first, at most `maxMessages` per run', async () => {
    for (const subject of ['een', 'twee', 'drie']) {
      await enqueueMail(db, clock, { kind: 'test', to: 'a@example.nl', subject, text: subject });
      clock.advance(1_000);
    }
    const transport = new RecordingTransport();
    expect(await deliverDueMail({ ...delivery(), transport, from: FROM }, { maxMessages: 2 })).toEqual({ sent: 2, failed: 0 });
    expect(transport.sent.map((m) => m.subject)).toEqual(['een', 'twee']);
    expect(await deliverDueMail({ ...delivery(), transport, from: FROM }, { maxMessages: 2 })).toEqual({ sent: 1, failed: 0 });
    expect(transport.sent.map((m) => m.subject)).toEqual(['een', 'twee', 'drie']);
  });

  it('never sends a message twice when marking its relatedRef fails after the SMTP server accepted it', async () => {
    const id = await enqueueMail(db, clock, invoiceMail);
    const transport = new RecordingTransport();
    const failingHook = async () => {
      throw new Error('database busy');
    };
    await deliverDueMail({ ...delivery(), transport, from: FROM, onDelivered: failingHook });
    expect(transport.sent).toHaveLength(1);
    expect((await rowOf(id)).status).toBe('sent');

    clock.advance(60 * MINUTE);
    await deliverDueMail({ ...delivery(), transport, from: FROM, onDelivered: failingHook });
    expect(transport.sent).toHaveLength(1);
  });
});

/** Holds every send until `release`, counting how many are under way at once. */
class SlowTransport implements MailTransport {
  sent: string[] = [];
  underWay = 0;
  mostAtOnce = 0;
  async send(message: TransportMessage) {
    this.underWay++;
    this.mostAtOnce = Math.max(this.mostAtOnce, this.underWay);
    await new Promise((resolve) => setTimeout(resolve, 2));
    this.underWay--;
    this.sent.push(message.subject);
  }
}

async function queueMany(count: number) {
  for (let i = 0; i < count; i++) await enqueueMail(db, clock, { kind: 'test', to: `lid${i}@example.nl`, subject: `Bericht ${i}`, text: 'Hallo' });
}

describe('deliverDueMail drains the queue (docs/decisions/053)', () => {
  it('keeps claiming batches until nothing is due: 130 messages in one call, each once, over at most `connections` sends at once', async () => {
    await queueMany(130);
    const transport = new SlowTransport();
    expect(await deliverDueMail({ ...delivery(), transport, from: FROM, connections: 3 })).toEqual({ sent: 130, failed: 0 });
    expect(transport.sent).toHaveLength(130);
    expect(new Set(transport.sent).size).toBe(130);
    expect(transport.mostAtOnce).toBe(3);
    const statuses = await db.select({ status: mailOutbox.status }).from(mailOutbox);
    expect(statuses.every((r) => r.status === 'sent')).toBe(true);
  });

  it('never lets two drains running at the same time send the same message', async () => {
    await queueMany(90);
    const transport = new SlowTransport();
    const reports = await Promise.all([1, 2, 3].map(() => deliverDueMail({ ...delivery(), transport, from: FROM, connections: 2 })));
    expect(reports.reduce((sum, r) => sum + r.sent, 0)).toBe(90);
    expect(transport.sent.toSorted()).toEqual(Array.from({ length: 90 }, (_, i) => `Bericht ${i}`).toSorted());
  });

  it('claims no further batch once `stop` says so, and puts claimed messages that did not start back in the queue', async () => {
    await queueMany(30);
    const transport = new SlowTransport();
    const report = await deliverDueMail({ ...delivery(), transport, from: FROM, connections: 2 }, { stop: () => transport.sent.length >= 4 });
    expect(report.sent).toBeGreaterThanOrEqual(4);
    expect(report.sent).toBeLessThan(10);
    const rows = await db.select().from(mailOutbox);
    expect(rows.filter((r) => r.status === 'sending')).toEqual([]);
    expect(rows.filter((r) => r.status === 'queued')).toHaveLength(30 - report.sent);
    expect(rows.filter((r) => r.status === 'queued').every((r) => r.attempts === 0)).toBe(true);
  });

  it('ends the run after a batch the server took nothing of: the rest waits without using up an attempt', async () => {
    await queueMany(60);
    const transport = new RecordingTransport();
    transport.failWith = 'connect ECONNREFUSED 127.0.0.1:25';
    // One connection: a batch is 5 messages.
    expect(await deliverDueMail({ ...delivery(), transport, from: FROM })).toEqual({ sent: 0, failed: 5 });
    const rows = await db.select().from(mailOutbox);
    expect(rows.filter((r) => r.attempts === 1)).toHaveLength(5);
    expect(rows.filter((r) => r.status === 'queued' && r.attempts === 0)).toHaveLength(55);
  });

  it('delivers only the messages named by `ids`, however many', async () => {
    await queueMany(120);
    const ids = (await db.select({ id: mailOutbox.id }).from(mailOutbox)).map((r) => r.id).filter((id) => id % 2 === 0);
    const transport = new RecordingTransport();
    expect(await deliverDueMail({ ...delivery(), transport, from: FROM }, { ids })).toEqual({ sent: ids.length, failed: 0 });
    const sent = await db.select({ id: mailOutbox.id }).from(mailOutbox).where(eq(mailOutbox.status, 'sent'));
    expect(sent.map((r) => r.id).toSorted((a, b) => a - b)).toEqual(ids);
  });

  it('puts messages a stopped process left "sending" back in the queue at the next start', async () => {
    await queueMany(3);
    const [first, second] = await db.select().from(mailOutbox).orderBy(asc(mailOutbox.id));
    await db.update(mailOutbox).set({ status: 'sending' }).where(eq(mailOutbox.id, first!.id));
    await db.update(mailOutbox).set({ status: 'sent' }).where(eq(mailOutbox.id, second!.id));
    clock.advance(MINUTE);
    expect(await requeueInterruptedMail(db, clock)).toBe(1);
    expect(await rowOf(first!.id)).toMatchObject({ status: 'queued', nextAttemptAt: clock.now().getTime() });
    expect((await rowOf(second!.id)).status).toBe('sent');
  });
});

describe('retryDelayMs', () => {
  it('waits 1 minute after the first failure and doubles after each next one', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map(retryDelayMs)).toEqual([1, 2, 4, 8, 16, 32, 64].map((m) => m * MINUTE));
  });

  it('never waits more than 2 hours', () => {
    expect(retryDelayMs(8)).toBe(2 * 60 * MINUTE);
    expect(retryDelayMs(30)).toBe(2 * 60 * MINUTE);
    expect(retryDelayMs(1000)).toBe(2 * 60 * MINUTE);
  });

  it('treats zero attempts like the first', () => {
    expect(retryDelayMs(0)).toBe(MINUTE);
  });
});
