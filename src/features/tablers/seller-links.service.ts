import { encodeBase64 } from '@oslojs/encoding';
import { eq } from 'drizzle-orm';
import type { RequestCtx } from '../../context';
import { AppError } from '../../core/errors';
import { tablers } from '../../db/schema';
import { qrModules, qrPng } from '../../platform/qr-code';
import { auditIfChanged } from '../audit/audit';
import { requireManagement } from '../auth/permissions';
import { getIntegerSetting, getStringSetting } from '../settings/settings.service';
import { fileNamePart } from './file-name';
import { SELLER_LINK_GONE, SELLER_PAGE_PATH, sellerOfToken, sellerToken } from './seller-link';

const TABLER_NOT_FOUND = 'Tabler niet gevonden.';

/** The tabler's link on the club's origin (docs/decisions/054), or a 404 for an unknown tabler. */
async function linkOf(ctx: RequestCtx, tablerId: number, renew: boolean): Promise<{ url: string; tablerName: string }> {
  const [row] = await ctx.db.select({ name: tablers.name }).from(tablers).where(eq(tablers.id, tablerId)).limit(1);
  if (!row) throw new AppError('TABLER_NOT_FOUND', TABLER_NOT_FOUND);
  // A renewal stops every link handed out before it: the log says who did it and when, written with it (docs/decisions/070).
  const audit = renew ? auditIfChanged(ctx, { action: 'tabler.link_renewed', target: `tabler:${tablerId} (${row.name})` }) : undefined;
  const token = await sellerToken(ctx, tablerId, renew, audit);
  if (!token) throw new AppError('TABLER_NOT_FOUND', TABLER_NOT_FOUND);
  return { url: `${ctx.siteOrigin}${SELLER_PAGE_PATH}${token}`, tablerName: row.name };
}

/**
 * DESIGN §6 POST /tablers/link: the tabler's own order link and its QR code as a PNG. Without `renew` the
 * current link (the first call makes it); with it a new one, and the old one stops working.
 */
export async function tablerLink(ctx: RequestCtx, tablerId: number, renew: boolean): Promise<{ success: true; url: string; qr_png: string }> {
  requireManagement(ctx);
  const { url } = await linkOf(ctx, tablerId, renew);
  const png = await qrPng(await qrModules(url));
  return { success: true, url, qr_png: `data:image/png;base64,${encodeBase64(png)}` };
}

/** DESIGN §6 GET /api/sellers/<token> (public): whose link this is; a forged, renewed or malformed token is a 404. */
export async function sellerOfLink(ctx: RequestCtx, token: string): Promise<{ tabler_id: number; tabler_name: string }> {
  const seller = await sellerOfToken(ctx, token);
  if (!seller) throw new AppError('SELLER_NOT_FOUND', SELLER_LINK_GONE);
  return { tabler_id: seller.id, tabler_name: seller.name };
}

/** The tabler's A6 flyer with the current link (docs/decisions/070); the first flyer makes the link. */
export async function sellerFlyer(ctx: RequestCtx, tablerId: number): Promise<{ fileName: string; pdf: Uint8Array }> {
  requireManagement(ctx);
  const { url, tablerName } = await linkOf(ctx, tablerId, false);
  const [clubName, packagePrice] = await Promise.all([getStringSetting(ctx, 'club_name'), getIntegerSetting(ctx, 'package_price')]);
  // pdf-lib is the largest part of the server: evaluated when the first document is made, not at every start.
  const { renderSellerFlyerPdf } = await import('./seller-flyer-pdf');
  const pdf = await renderSellerFlyerPdf({ clubName, packagePrice, tablerName, url }, await qrModules(url));
  return { fileName: `flyer-${fileNamePart(tablerName)}.pdf`, pdf };
}
