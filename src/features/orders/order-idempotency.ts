import { eq, lt, type SQL } from 'drizzle-orm';
import { AppError } from '../../core/errors';
import type { ClubDb } from '../../db/client';
import { idempotencyKeys } from '../../db/schema';
import type { Clock } from '../../platform/clock';
import { sha256Hex } from '../../platform/crypto';
import { replayableOrderLink } from './order-links';
import type { OrderInput } from './orders.schemas';

/**
 * POST /orders/create under an Idempotency-Key (docs/decisions/068): the key and a hash of the request as
 * validated (so `postalCode` or `postal_code`, spacing and case of the postcode do not make another request).
 */
export interface IdempotentRequest {
  key: string;
  hash: string;
}

/** How long a key answers the same order again; the contract asks for at least a day, a phone may stay offline for days. */
export const IDEMPOTENCY_KEY_DAYS = 30;

export function idempotentRequest(key: string, input: OrderInput): IdempotentRequest {
  return { key, hash: sha256Hex(JSON.stringify(input)) };
}

export type CreatedOrder = { reference: string; orderUrl: string };

/**
 * The answer an earlier request with this key got, or null when the key is new; the same key with another
 * request is refused (422), never answered with an order the request did not ask for.
 */
export async function earlierAnswer(ctx: { db: ClubDb; siteOrigin: string; secretKey: string }, request: IdempotentRequest): Promise<CreatedOrder | null> {
  const [row] = await ctx.db
    .select({ hash: idempotencyKeys.requestHash, reference: idempotencyKeys.orderReference })
    .from(idempotencyKeys)
    .where(eq(idempotencyKeys.key, request.key))
    .limit(1);
  if (!row) return null;
  if (row.hash !== request.hash) {
    throw new AppError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was already used for a different request.');
  }
  return { reference: row.reference, orderUrl: (await replayableOrderLink(ctx, linkSeed(request))).url };
}

/** The seed of the order link made under this key: the same key and request give the same link. */
export function linkSeed(request: IdempotentRequest): string {
  return `${request.key}\u0000${request.hash}`;
}

/** The key's row, for the order's own batch: a second request with the key fails there on the primary key. */
export function rememberAnswer(ctx: { db: ClubDb; clock: Clock }, request: IdempotentRequest, orderReference: SQL, orderId: SQL) {
  return ctx.db.insert(idempotencyKeys).values({
    key: request.key,
    requestHash: request.hash,
    orderId: orderId as unknown as number,
    orderReference: orderReference as unknown as string,
    createdAt: ctx.clock.now().toISOString(),
  });
}

/** Housekeeping: keys older than IDEMPOTENCY_KEY_DAYS answer nothing any more. */
export async function deleteOldIdempotencyKeys(db: ClubDb, clock: Clock): Promise<void> {
  const before = new Date(clock.now().getTime() - IDEMPOTENCY_KEY_DAYS * 24 * 60 * 60 * 1000);
  await db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, before.toISOString()));
}
