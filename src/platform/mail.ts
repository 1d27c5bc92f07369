import { and, asc, eq, inArray, lte, or, sql, type SQL } from 'drizzle-orm';
import type { ClubDb } from '../db/client';
import { mailOutbox, settings } from '../db/schema';
import type { Clock } from './clock';
import type { FileStore } from './files';
import type { Logger } from '../core/logger';
import { replyToAddress } from './mime';
import type { SendPacer } from './send-pacer';

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
  /**
   * Who an answer should reach (the contact mail: the visitor). Left out, the message answers to the club's
   * own address, `club_email` (docs/decisions/058).
   */
  replyTo?: string;
}

export interface TransportMessage {
  from: string;
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** A bare address for the Reply-To header (checked by replyToAddress before it reaches a transport). */
  replyTo?: string;
  /** With `contentId`: an inline image the HTML refers to as `cid:<contentId>` (see MailAttachmentRef). */
  attachments: { filename: string; contentType: string; content: Uint8Array; contentId?: string }[];
}

export interface MailTransport {
  /** Resolves once the SMTP server accepted the message; rejects with the reason otherwise. */
  send(message: TransportMessage): Promise<void>;
  /** Ends the connections it keeps open (Node's pool), once nothing more will be sent. */
  close?(): void;
  /**
   * 'invocation' when its connections cannot outlive the request or cron run that opened them (the
   * Worker): each invocation then delivers within its own bound instead of joining one long drain
   * (docs/decisions/053). 'process' when absent.
   */
  readonly scope?: 'process' | 'invocation';
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

/**
 * docs/decisions/058: a message that names no Reply-To answers to the club's own address, read from the
 * settings in the statement that queues it, so it is stored with the message. A value that is not one
 * plain address (a half-typed setting) gives no Reply-To rather than a broken header. (In the GLOB class
 * ']' comes first, where it stands for itself.)
 */
function replyToOf(db: ClubDb, mail: Pick<OutgoingMail, 'replyTo'>): string | SQL {
  if (mail.replyTo !== undefined) return replyToAddress(mail.replyTo);
  return sql`${db
    .select({ value: settings.value })
    .from(settings)
    .where(
      sql`${settings.key} = 'club_email' AND ${settings.value} LIKE '%_@_%' AND ${settings.value} NOT LIKE '%@%@%'
        AND ${settings.value} NOT GLOB ('*[' || char(93, 9, 10, 13, 32, 34, 40, 41, 44, 58, 59, 60, 62, 91, 92) || ']*')`,
    )}`;
}

export async function enqueueMail(db: ClubDb, clock: Clock, mail: OutgoingMail): Promise<number> {
  const [row] = await enqueueMailStatement(db, clock, mail);
  return row!.id;
}

/**
 * The insert of one queued message, not yet run, for the caller's db.batch: a change and the mail that
 * tells about it land together or not at all. Subject and text may be SQL the database works out in that
 * batch (an order reference drawn from its sequence, the id of a user created there); a subject given as
 * text loses its line breaks.
 */
export function enqueueMailStatement(
  db: ClubDb,
  clock: Clock,
  mail: Omit<OutgoingMail, 'subject' | 'text' | 'relatedRef'> & { subject: string | SQL; text: string | SQL; relatedRef?: string | SQL },
) {
  const now = clock.now();
  return db
    .insert(mailOutbox)
    .values({
      kind: mail.kind,
      toAddress: headerValue(mail.to),
      subject: typeof mail.subject === 'string' ? headerValue(mail.subject) : mail.subject,
      textBody: mail.text,
      htmlBody: mail.html ?? null,
      attachments: JSON.stringify(mail.attachments ?? []),
      relatedRef: mail.relatedRef ?? null,
      replyTo: replyToOf(db, mail),
      status: 'queued',
      nextAttemptAt: now.getTime(),
      createdAt: now.toISOString(),
    })
    .returning({ id: mailOutbox.id });
}

/**
 * Queues a message unless one of the same kind for the same `relatedRef` is already waiting (queued or
 * being sent). One INSERT … SELECT … WHERE NOT EXISTS statement, so two requests at the same moment
 * (two admins, two Worker isolates) cannot both queue a copy: SQLite and D1 run it as one atomic write.
 */
export async function enqueueMailUnlessWaiting(db: ClubDb, clock: Clock, mail: OutgoingMail & { relatedRef: string }): Promise<void> {
  const now = clock.now();
  const t = mailOutbox;
  const waiting = db
    .select({ one: sql`1` })
    .from(t)
    .where(and(eq(t.kind, mail.kind), eq(t.relatedRef, mail.relatedRef), inArray(t.status, ['queued', 'sending'])));
  // Every column in the table's order (the club first, the id NULL), as Drizzle's INSERT … SELECT wants them.
  await db.insert(t).select(sql`
    SELECT ${db.clubId}, NULL, ${mail.kind}, ${headerValue(mail.to)}, ${headerValue(mail.subject)}, ${mail.text}, ${mail.html ?? null},
      ${JSON.stringify(mail.attachments ?? [])}, ${mail.relatedRef}, ${replyToOf(db, mail)}, 'queued', 0, NULL, ${now.getTime()}, ${now.toISOString()}, NULL
    WHERE NOT EXISTS ${waiting}`);
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
  db: ClubDb;
  files: FileStore;
  clock: Clock;
  transport: MailTransport | null;
  from: string;
  /** Spaces the starts of sends (MAIL_RATE_PER_MINUTE); one per process or isolate, shared by every delivery. */
  pacer: SendPacer;
  /** How many messages are sent at once (MAIL_CONNECTIONS). */
  connections: number;
  /** Called after the SMTP server accepted a message that has a relatedRef, with its kind (e.g. mark an invoice sent). */
  onDelivered?: (relatedRef: string, kind: string) => Promise<void>;
  log?: Logger;
}

export interface DeliveryLimits {
  /** Only these messages (a request delivering the mail it just queued); otherwise everything due. */
  ids?: readonly number[];
  /** Claims no more than this many messages in this call (the Worker's bound per invocation). */
  maxMessages?: number;
  /**
   * Checked before every claim and every send: once true, nothing new starts and claimed messages not yet
   * started go back to the queue (a deadline passed, the server is shutting down).
   */
  stop?: () => boolean;
}

export interface DeliveryReport {
  sent: number;
  failed: number;
}

type OutboxRow = typeof mailOutbox.$inferSelect;

/**
 * A batch is what the connections work through between two claims: small enough that its messages
 * leave well within the lease at any sensible rate, and within D1's 100 bound parameters per statement.
 */
const MAX_BATCH = 50;
const BATCH_PER_CONNECTION = 5;

/** Due now: queued and its attempt has come, or left in 'sending' by a delivery that died (after its lease). */
function dueNow(now: number) {
  return or(
    and(eq(mailOutbox.status, 'queued'), lte(mailOutbox.nextAttemptAt, now)),
    and(eq(mailOutbox.status, 'sending'), lte(mailOutbox.nextAttemptAt, now - SENDING_LEASE_MS)),
  );
}

/**
 * Claims up to `limit` due messages in one UPDATE … WHERE id IN (SELECT … LIMIT) RETURNING: the
 * database runs it as one write, so two drains (two Worker isolates, the timer and a request) never
 * claim the same row. A claimed row is 'sending' with its lease starting now.
 */
async function claimDue(db: ClubDb, now: number, limit: number, ids: readonly number[] | undefined): Promise<OutboxRow[]> {
  const pick = db
    .select({ id: mailOutbox.id })
    .from(mailOutbox)
    .where(and(ids ? inArray(mailOutbox.id, [...ids]) : undefined, dueNow(now)))
    .orderBy(asc(mailOutbox.nextAttemptAt), asc(mailOutbox.id))
    .limit(limit);
  const rows = await db
    .update(mailOutbox)
    .set({ status: 'sending', nextAttemptAt: now })
    .where(and(inArray(mailOutbox.id, pick), dueNow(now)))
    .returning();
  return rows.sort((a, b) => a.id - b.id);
}

/** Claimed messages that never started go back to the queue, due at once (a stop came first). */
async function releaseClaimed(db: ClubDb, clock: Clock, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(mailOutbox)
    .set({ status: 'queued', nextAttemptAt: clock.now().getTime() })
    .where(and(inArray(mailOutbox.id, ids), eq(mailOutbox.status, 'sending')));
}

/**
 * Puts every message left in 'sending' back in the queue, due now: at the start of a process that is
 * the only one using its database, those rows are what its previous run was cut off in (docs/decisions/053).
 * Returns how many there were.
 */
export async function requeueInterruptedMail(db: ClubDb, clock: Clock): Promise<number> {
  const rows = await db
    .update(mailOutbox)
    .set({ status: 'queued', nextAttemptAt: clock.now().getTime() })
    .where(eq(mailOutbox.status, 'sending'))
    .returning({ id: mailOutbox.id });
  return rows.length;
}

/** Sends one claimed message and records the outcome; true when the SMTP server accepted it. */
async function deliverOne(deps: DeliveryDeps & { transport: MailTransport }, message: OutboxRow): Promise<boolean> {
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
      // Checked again on the way out: the row is only as safe as whatever wrote it.
      ...(message.replyTo ? { replyTo: replyToAddress(message.replyTo) } : {}),
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
    return false;
  }
  // The SMTP server has the message: a failure from here on must never put it back in the queue.
  await deps.db
    .update(mailOutbox)
    .set({ status: 'sent', attempts, lastError: null, sentAt: deps.clock.now().toISOString() })
    .where(eq(mailOutbox.id, message.id));
  if (message.relatedRef && deps.onDelivered) {
    try {
      await deps.onDelivered(message.relatedRef, message.kind);
    } catch (error) {
      deps.log?.error('Marking a delivered message failed', { id: message.id, relatedRef: message.relatedRef, error: String(error) });
    }
  }
  return true;
}

/** `connections` lanes work through one claimed batch, each send waiting for its turn from the pacer. */
async function sendBatch(deps: DeliveryDeps & { transport: MailTransport }, batch: OutboxRow[], stop: (() => boolean) | undefined): Promise<DeliveryReport> {
  const report: DeliveryReport = { sent: 0, failed: 0 };
  const waiting = [...batch];
  const released: number[] = [];
  const lane = async () => {
    for (let message = waiting.shift(); message; message = waiting.shift()) {
      if (!stop?.()) await deps.pacer.take();
      if (stop?.()) {
        released.push(message.id);
        continue;
      }
      if (await deliverOne(deps, message)) report.sent++;
      else report.failed++;
    }
  };
  const lanes = await Promise.allSettled(Array.from({ length: Math.min(deps.connections, batch.length) }, lane));
  await releaseClaimed(deps.db, deps.clock, released);
  const broken = lanes.find((outcome) => outcome.status === 'rejected');
  if (broken) throw broken.reason;
  return report;
}

/**
 * Delivers what is due until nothing due is left (docs/decisions/053): claims a batch, sends it over
 * `connections` connections at the pacer's rate, claims the next. With `ids` only those messages.
 * A batch of which the server took nothing ends the run (it is down or refusing us): the rest waits
 * in the queue for the next run instead of each message using up an attempt. Without a transport
 * nothing is touched: messages wait, queued.
 */
export async function deliverDueMail(deps: DeliveryDeps, limits: DeliveryLimits = {}): Promise<DeliveryReport> {
  const report: DeliveryReport = { sent: 0, failed: 0 };
  const transport = deps.transport;
  if (!transport || limits.ids?.length === 0) return report;
  // A claimed message must start well within its lease, even at a slow rate: never more than 5 minutes' worth.
  const batchSize = Math.max(1, Math.min(MAX_BATCH, deps.connections * BATCH_PER_CONNECTION, Math.floor(deps.pacer.perMinute * 5)));
  // D1 binds at most 100 parameters per statement: a long list of ids is claimed a part at a time.
  const idGroups = limits.ids ? chunk(limits.ids, MAX_BATCH) : [undefined];
  let budget = limits.maxMessages ?? Number.POSITIVE_INFINITY;
  for (const ids of idGroups) {
    while (budget > 0 && !limits.stop?.()) {
      const batch = await claimDue(deps.db, deps.clock.now().getTime(), Math.min(batchSize, budget), ids);
      if (batch.length === 0) break;
      budget -= batch.length;
      const outcome = await sendBatch({ ...deps, transport }, batch, limits.stop);
      report.sent += outcome.sent;
      report.failed += outcome.failed;
      if (outcome.sent === 0 && outcome.failed > 0) return report;
    }
  }
  return report;
}

function chunk<T>(items: readonly T[], size: number): T[][] {
  const parts: T[][] = [];
  for (let i = 0; i < items.length; i += size) parts.push(items.slice(i, i + size));
  return parts;
}
