import { and, asc, eq, inArray, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { mailOutbox } from '../db/schema';
import type { Clock } from './clock';
import type { FileStore } from './files';
import type { Logger } from '../core/logger';

/**
 * The mail path (docs/architecture.md §3): every message is written to the outbox first, then delivered by a
 * transport (SMTP) with retries and back-off, so nothing is lost while SMTP is down.
 */
export interface MailAttachmentRef {
  filename: string;
  contentType: string;
  /** Key in the file store; attachments are not kept in the database row. */
  fileKey: string;
  /**
   * Makes the attachment an inline image that the HTML body shows as `<img src="cid:<contentId>">` (e.g.
   * the invoice mail's payment QR code) instead of a file to download. A plain token such as 'betaal-qr'.
   */
  contentId?: string;
}

export interface OutgoingMail {
  kind: string;
  to: string;
  subject: string;
  text: string;
  html?: string;
  attachments?: MailAttachmentRef[];
  relatedRef?: string;
}

export interface TransportMessage {
  from: string;
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** With `contentId`: an inline image the HTML refers to as `cid:<contentId>` (see MailAttachmentRef). */
  attachments: { filename: string; contentType: string; content: Uint8Array; contentId?: string }[];
}

export interface MailTransport {
  /** Resolves once the SMTP server accepted the message; rejects with the reason otherwise. */
  send(message: TransportMessage): Promise<void>;
}

export const MAX_MAIL_ATTEMPTS = 8;
const SENDING_LEASE_MS = 10 * 60 * 1000;

/** 1 min, 2, 4, … capped at 2 h between attempts. */
export function retryDelayMs(attempts: number): number {
  return Math.min(60_000 * 2 ** Math.max(0, attempts - 1), 2 * 60 * 60 * 1000);
}

/** Header values never carry line breaks: a visitor's text must not add mail headers of its own. */
export function headerValue(text: string): string {
  return text
    .replace(/[\r\n\t]+/g, ' ')
    .replace(/\s{2,}/g, ' ')
    .trim();
}

export async function enqueueMail(db: Db, clock: Clock, mail: OutgoingMail): Promise<number> {
  const now = clock.now();
  const [row] = await db
    .insert(mailOutbox)
    .values({
      kind: mail.kind,
      toAddress: headerValue(mail.to),
      subject: headerValue(mail.subject),
      textBody: mail.text,
      htmlBody: mail.html ?? null,
      attachments: JSON.stringify(mail.attachments ?? []),
      relatedRef: mail.relatedRef ?? null,
      status: 'queued',
      nextAttemptAt: now.getTime(),
      createdAt: now.toISOString(),
    })
    .returning({ id: mailOutbox.id });
  return row!.id;
}

/**
 * Queues a message unless one of the same kind for the same `relatedRef` is already waiting (queued or
 * being sent). One INSERT … SELECT … WHERE NOT EXISTS statement, so two requests at the same moment
 * (two admins, two Worker isolates) cannot both queue a copy: SQLite and D1 run it as one atomic write.
 */
export async function enqueueMailUnlessWaiting(db: Db, clock: Clock, mail: OutgoingMail & { relatedRef: string }): Promise<void> {
  const now = clock.now();
  const t = mailOutbox;
  await db.run(sql`
    INSERT INTO ${t} (${sql.identifier(t.kind.name)}, ${sql.identifier(t.toAddress.name)}, ${sql.identifier(t.subject.name)},
      ${sql.identifier(t.textBody.name)}, ${sql.identifier(t.htmlBody.name)}, ${sql.identifier(t.attachments.name)},
      ${sql.identifier(t.relatedRef.name)}, ${sql.identifier(t.status.name)}, ${sql.identifier(t.nextAttemptAt.name)},
      ${sql.identifier(t.createdAt.name)})
    SELECT ${mail.kind}, ${headerValue(mail.to)}, ${headerValue(mail.subject)}, ${mail.text}, ${mail.html ?? null},
      ${JSON.stringify(mail.attachments ?? [])}, ${mail.relatedRef}, 'queued', ${now.getTime()}, ${now.toISOString()}
    WHERE NOT EXISTS (
      SELECT 1 FROM ${t} WHERE ${t.kind} = ${mail.kind} AND ${t.relatedRef} = ${mail.relatedRef} AND ${t.status} IN ('queued', 'sending')
    )`);
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    total += value.length;
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

export interface DeliveryDeps {
  db: Db;
  files: FileStore;
  clock: Clock;
  transport: MailTransport | null;
  from: string;
  /** Called after the SMTP server accepted a message that has a relatedRef, with its kind (e.g. mark an invoice sent). */
  onDelivered?: (relatedRef: string, kind: string) => Promise<void>;
  log?: Logger;
}

export interface DeliveryReport {
  sent: number;
  failed: number;
}

/**
 * Delivers the messages that are due — all of them (the timer, the cron), or only `ids` (a request
 * delivering the mail it just queued, issue 14). Without a transport nothing is touched: they wait, queued.
 */
export async function deliverDueMail(deps: DeliveryDeps, limit = 20, ids?: readonly number[]): Promise<DeliveryReport> {
  const report: DeliveryReport = { sent: 0, failed: 0 };
  if (!deps.transport || ids?.length === 0) return report;
  const now = deps.clock.now().getTime();
  const due = await deps.db
    .select()
    .from(mailOutbox)
    .where(
      and(
        ids ? inArray(mailOutbox.id, [...ids]) : undefined,
        or(
          and(eq(mailOutbox.status, 'queued'), lte(mailOutbox.nextAttemptAt, now)),
          // A delivery that died mid-way (process killed) is picked up again after its lease.
          and(eq(mailOutbox.status, 'sending'), lte(mailOutbox.nextAttemptAt, now - SENDING_LEASE_MS)),
        ),
      ),
    )
    .orderBy(asc(mailOutbox.nextAttemptAt))
    .limit(limit);

  for (const message of due) {
    // Claim the row so two workers never send the same message.
    const claimed = await deps.db
      .update(mailOutbox)
      .set({ status: 'sending', nextAttemptAt: now })
      .where(and(eq(mailOutbox.id, message.id), eq(mailOutbox.status, message.status), eq(mailOutbox.nextAttemptAt, message.nextAttemptAt)))
      .returning({ id: mailOutbox.id });
    if (claimed.length === 0) continue;
    const attempts = message.attempts + 1;
    try {
      const refs = JSON.parse(message.attachments) as MailAttachmentRef[];
      const attachments = [];
      for (const ref of refs) {
        const file = await deps.files.get(ref.fileKey);
        if (!file) throw new Error(`Attachment ${ref.filename} is missing from storage`);
        attachments.push({
          filename: ref.filename,
          contentType: ref.contentType,
          content: await readAll(file.body),
          ...(ref.contentId ? { contentId: ref.contentId } : {}),
        });
      }
      await deps.transport.send({
        from: deps.from,
        to: message.toAddress,
        subject: message.subject,
        text: message.textBody,
        ...(message.htmlBody ? { html: message.htmlBody } : {}),
        attachments,
      });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const giveUp = attempts >= MAX_MAIL_ATTEMPTS;
      await deps.db
        .update(mailOutbox)
        .set({
          status: giveUp ? 'failed' : 'queued',
          attempts,
          lastError: reason.slice(0, 1000),
          nextAttemptAt: deps.clock.now().getTime() + retryDelayMs(attempts),
        })
        .where(eq(mailOutbox.id, message.id));
      report.failed++;
      continue;
    }
    // The SMTP server has the message: a failure from here on must never put it back in the queue.
    await deps.db
      .update(mailOutbox)
      .set({ status: 'sent', attempts, lastError: null, sentAt: deps.clock.now().toISOString() })
      .where(eq(mailOutbox.id, message.id));
    report.sent++;
    if (message.relatedRef && deps.onDelivered) {
      try {
        await deps.onDelivered(message.relatedRef, message.kind);
      } catch (error) {
        deps.log?.error('Marking a delivered message failed', { id: message.id, relatedRef: message.relatedRef, error: String(error) });
      }
    }
  }
  return report;
}
