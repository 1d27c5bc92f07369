import type { AppDeps, RequestCtx } from '../../context';
import { deliverDueMail, type DeliveryReport } from '../../platform/mail';

export type DeliveryCtx = Pick<AppDeps, 'db' | 'files' | 'clock' | 'mailTransport' | 'config' | 'log'>;

/** What a feature does once the SMTP server accepted one of its messages, given the message's relatedRef. */
export type MailDeliveredHook = (deps: Pick<AppDeps, 'db' | 'clock'>, relatedRef: string) => Promise<void>;

const deliveredHooks = new Map<string, MailDeliveredHook>();

/**
 * Registers what a delivery of a message of `kind` confirms (an invoice → `invoice_sent`). The outbox
 * knows no feature: each names its own kinds (app.ts wires them), so mail/ imports none of them.
 */
export function onMailDelivered(kind: string, hook: MailDeliveredHook): void {
  deliveredHooks.set(kind, hook);
}

/**
 * Works through the due part of the outbox — or only the messages `ids` names — with the app's transport
 * and runs the hook registered for a delivered message's kind. The one way the Node timer, the Worker
 * cron, a request's own mail and an admin's retry deliver mail. Without a transport (no SMTP_URL) nothing
 * moves.
 */
export function deliverOutbox(deps: DeliveryCtx, limit?: number, ids?: readonly number[]): Promise<DeliveryReport> {
  return deliverDueMail(
    {
      db: deps.db,
      files: deps.files,
      clock: deps.clock,
      transport: deps.mailTransport,
      from: deps.config.mailFrom,
      log: deps.log,
      onDelivered: async (relatedRef, kind) => {
        await deliveredHooks.get(kind)?.(deps, relatedRef);
      },
    },
    limit,
    ids,
  );
}

/**
 * Delivers the mail a request just queued (issue 14): started at once, after the answer on the Worker
 * (waitUntil) and as a background promise on Node, so the visitor never waits for SMTP. A failure
 * leaves the message queued with its back-off; the timer or cron retries it.
 */
export function deliverSoon(ctx: Pick<RequestCtx, 'background' | 'requestId'> & DeliveryCtx, ids: readonly number[]): void {
  if (!ctx.mailTransport) return;
  ctx.background(
    deliverOutbox(ctx, ids.length, ids).catch((error: unknown) => {
      ctx.log.error('Delivering just-queued mail failed', { requestId: ctx.requestId, error: String(error) });
    }),
  );
}

/** Delivers only the messages `ids` names and waits for the outcome (an admin's send shows whether it left). */
export async function deliverNowOnly(ctx: DeliveryCtx & { requestId?: string }, ids: readonly number[]): Promise<void> {
  if (!ctx.mailTransport) return;
  try {
    await deliverOutbox(ctx, ids.length, ids);
  } catch (error) {
    // The mail is safe in the outbox; the timer or cron delivers it later.
    ctx.log.error('Delivering the outbox failed', { requestId: ctx.requestId, error: String(error) });
  }
}
