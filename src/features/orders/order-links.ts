import { encodeBase64urlNoPadding } from '@oslojs/encoding';
import { eq, type SQL } from 'drizzle-orm';
import type { ClubDb } from '../../db/client';
import { orderLinks, orders } from '../../db/schema';
import type { Clock } from '../../platform/clock';
import { keyedDigest, randomBytes, sha256Hex } from '../../platform/crypto';

/**
 * The customer's order page /bestelling/<token> (docs/decisions/066): 256 random bits, of which only the
 * SHA-256 is stored. Every mail or answer that carries the link mints a token of its own, so a link once
 * sent keeps working and nothing stored can be turned back into one.
 */
export const ORDER_PAGE_PATH = '/bestelling/';

/** Whether a request's path is an order page, /bestelling/<token> (the server answers it with the page's one file). */
export function isOrderPagePath(path: string): boolean {
  return path.startsWith(ORDER_PAGE_PATH) && /^[A-Za-z0-9_-]+\/?$/.test(path.slice(ORDER_PAGE_PATH.length));
}

export interface OrderLink {
  token: string;
  url: string;
  tokenHash: string;
}

/** A new link on the club's origin (docs/decisions/054), not yet stored. */
export function newOrderLink(siteOrigin: string): OrderLink {
  const token = encodeBase64urlNoPadding(randomBytes(32));
  return { token, url: `${siteOrigin}${ORDER_PAGE_PATH}${token}`, tokenHash: sha256Hex(token) };
}

/**
 * The link of an order made under an Idempotency-Key (docs/decisions/068): its token is an HMAC of the key and
 * the request, so a replay answers the same link without the token itself ever being stored.
 */
export async function replayableOrderLink(ctx: { siteOrigin: string; secretKey: string }, seed: string): Promise<OrderLink> {
  const token = encodeBase64urlNoPadding(await keyedDigest(ctx.secretKey, 'order-link', seed));
  return { token, url: `${ctx.siteOrigin}${ORDER_PAGE_PATH}${token}`, tokenHash: sha256Hex(token) };
}

/** The insert of a link for the batch that makes or mails the order; `orderId` may be SQL that finds it there. */
export function storeOrderLink(ctx: { db: ClubDb; clock: Clock }, link: OrderLink, orderId: number | SQL) {
  return ctx.db.insert(orderLinks).values({ tokenHash: link.tokenHash, orderId: orderId as number, createdAt: ctx.clock.now().toISOString() });
}

/** A stored link for an existing order, for a mail or document about it. */
export async function mintOrderLink(ctx: { db: ClubDb; clock: Clock; siteOrigin: string }, orderId: number): Promise<string> {
  const link = newOrderLink(ctx.siteOrigin);
  await storeOrderLink(ctx, link, orderId);
  return link.url;
}

/** The id of the order a token opens, or null for a token nobody was given. */
export async function orderIdOfToken(db: ClubDb, token: string): Promise<number | null> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
  const [row] = await db
    .select({ id: orders.id })
    .from(orderLinks)
    .innerJoin(orders, eq(orders.id, orderLinks.orderId))
    .where(eq(orderLinks.tokenHash, sha256Hex(token)))
    .limit(1);
  return row?.id ?? null;
}
