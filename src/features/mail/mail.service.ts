import { and, count, desc, eq } from 'drizzle-orm';
import type { RequestCtx } from '../../context';
import { mailOutbox } from '../../db/schema';
import { AppError } from '../../core/errors';
import { MAX_MAIL_ATTEMPTS, type MailAttachmentRef } from '../../platform/mail';
import { requireManagement } from '../auth/permissions';
import { deliverNowOnly } from './mail-delivery';
import { MAIL_DEFAULT_PER_PAGE, MAIL_STATUSES, type MailListInput, type MailStatus } from './mail.schemas';

/**
 * The admin's 'Mail' view (docs/architecture.md §3 mail, docs/decisions/028): every outgoing message with its state, the
 * last error and the next attempt, and a retry. Whether SMTP is configured is part of the answer, so
 * the screen can say why messages wait.
 */

export const SMTP_NOT_CONFIGURED = 'Er is geen mailserver ingesteld (SMTP_URL ontbreekt): berichten blijven in de wachtrij staan tot die is ingesteld.';
export const MAIL_NOT_FOUND = 'Bericht niet gevonden.';
export const MAIL_ALREADY_SENT = 'Dit bericht is al verstuurd.';
export const MAIL_BUSY = 'Dit bericht wordt op dit moment verstuurd.';
export const RETRY_SENT = 'Bericht is verstuurd.';
export const RETRY_FAILED_AGAIN = 'Versturen is opnieuw mislukt; het bericht blijft in de wachtrij en wordt later nog eens geprobeerd.';
export const RETRY_QUEUED_NO_SMTP =
  'Bericht staat weer in de wachtrij, maar er is geen mailserver ingesteld (SMTP_URL): het wordt verstuurd zodra die is ingesteld.';

export interface MailView {
  id: number;
  kind: string;
  to: string;
  subject: string;
  status: MailStatus;
  attempts: number;
  max_attempts: number;
  last_error: string | null;
  /** ISO moment of the next attempt while the message waits; null once it is sent or failed for good. */
  next_attempt_at: string | null;
  created_at: string;
  sent_at: string | null;
  related_ref: string | null;
  attachments: string[];
}

export interface MailList {
  smtp_configured: boolean;
  /** Why mail waits, for the screen; null when SMTP is configured. */
  notice: string | null;
  counts: Record<MailStatus, number>;
  messages: MailView[];
  /** How many messages the filter matches over all pages. */
  total: number;
  page: number;
  per_page: number;
}

type OutboxRow = typeof mailOutbox.$inferSelect;

function attachmentNames(json: string): string[] {
  try {
    return (JSON.parse(json) as MailAttachmentRef[]).map((a) => a.filename);
  } catch {
    return [];
  }
}

function toMailView(row: OutboxRow): MailView {
  const waiting = row.status === 'queued' || row.status === 'sending';
  return {
    id: row.id,
    kind: row.kind,
    to: row.toAddress,
    subject: row.subject,
    status: row.status,
    attempts: row.attempts,
    max_attempts: MAX_MAIL_ATTEMPTS,
    last_error: row.lastError,
    next_attempt_at: waiting ? new Date(row.nextAttemptAt).toISOString() : null,
    created_at: row.createdAt,
    sent_at: row.sentAt,
    related_ref: row.relatedRef,
    attachments: attachmentNames(row.attachments),
  };
}

/**
 * GET /api/mail: newest first, optionally one status, a page at a time with the total it is part of (an
 * offset: the list changes little while an admin pages, and the screen says 'page X of Y'); with the
 * counts per status.
 */
export async function listMail(ctx: RequestCtx, input: MailListInput = {}): Promise<MailList> {
  requireManagement(ctx);
  const page = input.page ?? 1;
  const perPage = input.per_page ?? MAIL_DEFAULT_PER_PAGE;
  const where = input.status ? eq(mailOutbox.status, input.status) : undefined;
  const [rows, grouped] = await Promise.all([
    ctx.db
      .select()
      .from(mailOutbox)
      .where(where)
      .orderBy(desc(mailOutbox.id))
      .limit(perPage)
      .offset((page - 1) * perPage),
    ctx.db.select({ status: mailOutbox.status, n: count() }).from(mailOutbox).groupBy(mailOutbox.status),
  ]);
  const counts = Object.fromEntries(MAIL_STATUSES.map((s) => [s, 0])) as Record<MailStatus, number>;
  for (const { status, n } of grouped) counts[status] = n;
  // The per-status counts hold every total the filter can ask for.
  const total = input.status ? counts[input.status] : Object.values(counts).reduce((sum, n) => sum + n, 0);
  const configured = ctx.mailTransport !== null;
  return {
    smtp_configured: configured,
    notice: configured ? null : SMTP_NOT_CONFIGURED,
    counts,
    messages: rows.map(toMailView),
    total,
    page,
    per_page: perPage,
  };
}

async function mailRow(ctx: RequestCtx, id: number): Promise<OutboxRow | undefined> {
  const [row] = await ctx.db.select().from(mailOutbox).where(eq(mailOutbox.id, id)).limit(1);
  return row;
}

/**
 * POST /api/mail/retry?id=: a queued or failed message is due again now, with a fresh series of
 * attempts (a failed one had used up all of them); with SMTP configured it is tried at once.
 */
export async function retryMail(ctx: RequestCtx, id: number): Promise<{ success: true; message: string; mail: MailView }> {
  requireManagement(ctx);
  const row = await mailRow(ctx, id);
  if (!row) throw new AppError('MAIL_NOT_FOUND', MAIL_NOT_FOUND);
  if (row.status === 'sent') throw new AppError('MAIL_ALREADY_SENT', MAIL_ALREADY_SENT);
  if (row.status === 'sending') throw new AppError('MAIL_BUSY', MAIL_BUSY);
  const [claimed] = await ctx.db
    .update(mailOutbox)
    .set({ status: 'queued', attempts: 0, nextAttemptAt: ctx.clock.now().getTime() })
    .where(and(eq(mailOutbox.id, id), eq(mailOutbox.status, row.status)))
    .returning({ id: mailOutbox.id });
  // A delivery run took it between our read and the update.
  if (!claimed) throw new AppError('MAIL_BUSY', MAIL_BUSY);
  await deliverNowOnly(ctx, [id]);
  const after = (await mailRow(ctx, id))!;
  const message = after.status === 'sent' ? RETRY_SENT : ctx.mailTransport ? RETRY_FAILED_AGAIN : RETRY_QUEUED_NO_SMTP;
  return { success: true, message, mail: toMailView(after) };
}
