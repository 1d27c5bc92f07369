import { encodeBase64urlNoPadding } from '@oslojs/encoding';
import { eq, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import type { ClubDb } from '../../db/client';
import { tablers } from '../../db/schema';
import { keyedDigest, randomBytes, timingSafeEqual } from '../../platform/crypto';

/**
 * A tabler's own order link /bestellen/<seller_token> (docs/decisions/070): `<tablerId>.<nonce>.<signature>`,
 * the nonce stored on the tabler and the signature an HMAC under a key derived from SECRET_KEY. A forged token
 * fails the signature without a query; a renewed one (a new nonce) stops every link made before it.
 */
export const SELLER_PAGE_PATH = '/bestellen/';
const PURPOSE = 'seller-link';
/** What a customer reads when a link no longer names a seller: looked up (404) or ordered through (400). */
export const SELLER_LINK_GONE = 'Deze bestellink werkt niet (meer). Vraag het lid om een nieuwe link.';
const TOKEN = /^([1-9]\d{0,15})\.([A-Za-z0-9_-]{12})\.([A-Za-z0-9_-]{22})$/;

async function signature(secretKey: string, tablerId: number, nonce: string): Promise<string> {
  return encodeBase64urlNoPadding((await keyedDigest(secretKey, PURPOSE, `${tablerId}.${nonce}`)).slice(0, 16));
}

async function tokenFor(secretKey: string, tablerId: number, nonce: string): Promise<string> {
  return `${tablerId}.${nonce}.${await signature(secretKey, tablerId, nonce)}`;
}

/** Whether a request's path is a seller's order page (the server answers it with the page's one file). */
export function isSellerPagePath(path: string): boolean {
  return path.startsWith(SELLER_PAGE_PATH) && TOKEN.test(path.slice(SELLER_PAGE_PATH.length).replace(/\/$/, ''));
}

/**
 * The tabler's token: the one it has, or a first one; `renew` replaces it (the old link stops). One UPDATE,
 * so two first requests at once agree on one nonce; `alongside` (a renewal's audit entry) lands in the same
 * batch. Null when no tabler has this id.
 */
export async function sellerToken(
  ctx: { db: ClubDb; secretKey: string },
  tablerId: number,
  renew: boolean,
  alongside?: BatchItem<'sqlite'>,
): Promise<string | null> {
  const fresh = encodeBase64urlNoPadding(randomBytes(9));
  const update = ctx.db
    .update(tablers)
    .set({ sellerNonce: renew ? fresh : sql`coalesce(${tablers.sellerNonce}, ${fresh})` })
    .where(eq(tablers.id, tablerId))
    .returning({ nonce: tablers.sellerNonce });
  const [[row]] = alongside ? await ctx.db.batch([update, alongside]) : [await update];
  return row?.nonce ? tokenFor(ctx.secretKey, tablerId, row.nonce) : null;
}

/** The tabler a token names, or null for a token that is malformed, forged, renewed since, or of a removed tabler. */
export async function sellerOfToken(ctx: { db: ClubDb; secretKey: string }, token: string): Promise<{ id: number; name: string } | null> {
  const match = TOKEN.exec(token);
  if (!match) return null;
  const tablerId = Number(match[1]);
  if (!timingSafeEqual(match[3]!, await signature(ctx.secretKey, tablerId, match[2]!))) return null;
  const [row] = await ctx.db.select({ id: tablers.id, name: tablers.name, nonce: tablers.sellerNonce }).from(tablers).where(eq(tablers.id, tablerId)).limit(1);
  return row?.nonce && timingSafeEqual(row.nonce, match[2]!) ? { id: row.id, name: row.name } : null;
}
