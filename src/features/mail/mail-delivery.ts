import type { ClubDeps, RequestCtx } from '../../context';
import type { Config } from '../../env';
import type { ClubId } from '../../db/club-db';
import { deliverDueMail, type DeliveryLimits, type DeliveryReport, type MailTransport } from '../../platform/mail';
import { SendPacer } from '../../platform/send-pacer';

export type DeliveryCtx = Pick<ClubDeps, 'db' | 'files' | 'clock' | 'mailTransport' | 'config' | 'log'>;

/** What a feature does once the SMTP server accepted one of its messages, given the message's relatedRef. */
export type MailDeliveredHook = (deps: Pick<ClubDeps, 'db' | 'clock'>, relatedRef: string) => Promise<void>;

const deliveredHooks = new Map<string, MailDeliveredHook>();

/**
 * Registers what a delivery of a message of `kind` confirms (an invoice → `invoice_sent`). The outbox
 * knows no feature: each names its own kinds (app.ts wires them), so mail/ imports none of them.
 */
export function onMailDelivered(kind: string, hook: MailDeliveredHook): void {
  deliveredHooks.set(kind, hook);
}

/**
 * What one process (Node) or isolate (Worker) keeps per transport: the pacer every delivery shares, the
 * drain running on Node, and the deliveries under way, which a graceful shutdown waits for.
 */
interface Courier {
  pacer: SendPacer;
  /** Each club's drain on Node (docs/decisions/071): its outbox is its own. */
  drains: Map<ClubId, ClubDrain>;
  /** Shutting down: no new batch is claimed; a request's own messages still go. */
  stopping: boolean;
  underWay: Set<Promise<unknown>>;
}

interface ClubDrain {
  drain: Promise<DeliveryReport>;
  /** A request found mail due while the drain was finishing: it runs once more. */
  again: boolean;
}

const couriers = new WeakMap<MailTransport, Courier>();

function courierOf(transport: MailTransport, config: Config): Courier {
  let courier = couriers.get(transport);
  if (!courier) {
    courier = { pacer: new SendPacer(config.mailRatePerMinute), drains: new Map(), stopping: false, underWay: new Set() };
    couriers.set(transport, courier);
  }
  return courier;
}

function underWay<T>(courier: Courier, work: Promise<T>): Promise<T> {
  courier.underWay.add(work);
  work.then(
    () => courier.underWay.delete(work),
    () => courier.underWay.delete(work),
  );
  return work;
}

/**
 * docs/decisions/053: how long and how much one Worker invocation delivers. A request's waitUntil may run
 * 30 s after its answer; a cron run (every 5 minutes) up to 15 minutes, stopped before the next one starts.
 * The message count (MAIL_PER_INVOCATION) keeps a run within D1's queries per invocation.
 */
export const WORKER_REQUEST_DRAIN_MS = 20_000;
export const WORKER_CRON_DRAIN_MS = 4 * 60_000;

/**
 * Works through the due part of the outbox — or only the messages `limits.ids` names — with the app's
 * transport at MAIL_RATE_PER_MINUTE over MAIL_CONNECTIONS connections, and runs the hook registered for a
 * delivered message's kind. Without a transport (no SMTP_URL) nothing moves.
 */
export function deliverOutbox(deps: DeliveryCtx, limits: DeliveryLimits = {}): Promise<DeliveryReport> {
  const transport = deps.mailTransport;
  if (!transport) return Promise.resolve({ sent: 0, failed: 0 });
  const courier = courierOf(transport, deps.config);
  // A shutdown stops the queue's drain; the messages a request names are part of that request's work.
  const stop = limits.ids ? limits.stop : () => courier.stopping || (limits.stop?.() ?? false);
  return underWay(
    courier,
    deliverDueMail(
      {
        db: deps.db,
        files: deps.files,
        clock: deps.clock,
        transport,
        from: deps.config.mailFrom,
        pacer: courier.pacer,
        connections: deps.config.mailConnections,
        log: deps.log,
        onDelivered: async (relatedRef, kind) => {
          await deliveredHooks.get(kind)?.(deps, relatedRef);
        },
      },
      { ...limits, ...(stop ? { stop } : {}) },
    ),
  );
}

/**
 * Delivers everything due (docs/decisions/053). On Node one drain runs per process until the queue is
 * empty: the timer and every request that found mail due join it. On the Worker, whose connections
 * belong to one invocation, each request or cron run drains on its own within its bound; their claims
 * never overlap.
 */
export function drainOutbox(deps: DeliveryCtx, trigger: 'timer' | 'request' | 'cron'): Promise<DeliveryReport> {
  const transport = deps.mailTransport;
  if (!transport) return Promise.resolve({ sent: 0, failed: 0 });
  if (transport.scope === 'invocation') {
    const until = Date.now() + (trigger === 'cron' ? WORKER_CRON_DRAIN_MS : WORKER_REQUEST_DRAIN_MS);
    return deliverOutbox(deps, { maxMessages: deps.config.mailPerInvocation, stop: () => Date.now() >= until });
  }
  const courier = courierOf(transport, deps.config);
  if (courier.stopping) return Promise.resolve({ sent: 0, failed: 0 });
  const clubId = deps.db.clubId;
  const running = courier.drains.get(clubId);
  if (running) {
    running.again = true;
    return running.drain;
  }
  const state: ClubDrain = { drain: Promise.resolve({ sent: 0, failed: 0 }), again: false };
  state.drain = (async () => {
    const total: DeliveryReport = { sent: 0, failed: 0 };
    do {
      state.again = false;
      const report = await deliverOutbox(deps);
      total.sent += report.sent;
      total.failed += report.failed;
    } while (state.again && !courier.stopping);
    return total;
  })();
  courier.drains.set(clubId, state);
  const done = () => {
    courier.drains.delete(clubId);
  };
  state.drain.then(done, done);
  return state.drain;
}

/**
 * Delivers the mail a request just queued (docs/decisions/027), then what else is due (053): after the
 * answer on the Worker (waitUntil) and as a background promise on Node, so the visitor never waits for
 * SMTP. A failure leaves the message queued with its back-off; the timer or cron retries it.
 */
export function deliverSoon(ctx: Pick<RequestCtx, 'background' | 'requestId'> & DeliveryCtx, ids: readonly number[]): void {
  const transport = ctx.mailTransport;
  if (!transport) return;
  const work = (async () => {
    const own = await deliverOutbox(ctx, { ids });
    // Its own message failed: the server is down or refusing, and the rest would fare no better now.
    if (own.sent > 0) await drainOutbox(ctx, 'request');
  })().catch((error: unknown) => {
    ctx.log.error('Delivering just-queued mail failed', { requestId: ctx.requestId, error: String(error) });
  });
  ctx.background(underWay(courierOf(transport, ctx.config), work));
}

/**
 * Drains the queue after the answer (a bulk send that queued many messages, docs/decisions/053): Node's one
 * drain, or this request's waitUntil within the Worker's bound, the cron going on with what is left.
 */
export function drainSoon(ctx: Pick<RequestCtx, 'background' | 'requestId'> & DeliveryCtx): void {
  const transport = ctx.mailTransport;
  if (!transport) return;
  const work = drainOutbox(ctx, 'request').catch((error: unknown) => {
    ctx.log.error('Draining the outbox failed', { requestId: ctx.requestId, error: String(error) });
  });
  ctx.background(underWay(courierOf(transport, ctx.config), work));
}

/** Delivers only the messages `ids` names and waits for the outcome (an admin's send shows whether it left). */
export async function deliverNowOnly(ctx: DeliveryCtx & { requestId?: string }, ids: readonly number[]): Promise<void> {
  if (!ctx.mailTransport) return;
  try {
    await deliverOutbox(ctx, { ids });
  } catch (error) {
    // The mail is safe in the outbox; the timer or cron delivers it later.
    ctx.log.error('Delivering the outbox failed', { requestId: ctx.requestId, error: String(error) });
  }
}

/**
 * Graceful shutdown, first step (docs/decisions/053): no drain claims another batch from now on; claimed
 * messages not yet started go back to the queue. Deliveries a request asks for still go.
 */
export function stopDraining(deps: Pick<ClubDeps, 'mailTransport' | 'config'>): void {
  if (deps.mailTransport) courierOf(deps.mailTransport, deps.config).stopping = true;
}

/** Graceful shutdown, second step: resolves once no delivery is under way (sends finish, rows are written). */
export async function mailSettled(deps: Pick<ClubDeps, 'mailTransport' | 'config'>): Promise<void> {
  if (!deps.mailTransport) return;
  const courier = courierOf(deps.mailTransport, deps.config);
  while (courier.underWay.size > 0) await Promise.allSettled([...courier.underWay]);
}
