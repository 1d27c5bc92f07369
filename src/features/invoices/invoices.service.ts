import { and, desc, eq } from 'drizzle-orm';
import type { RequestCtx } from '../../context';
import { writeAudit } from '../audit/audit';
import { mailOutbox, orders } from '../../db/schema';
import { AppError, badRequest } from '../../http/errors';
import { enqueueMailUnlessWaiting, headerValue } from '../../platform/mail';
import { requireManagement } from '../auth/permissions';
import { deliverOutbox } from '../mail/mail-delivery';
import { getIntegerSetting, getSetting, getStringSetting } from '../settings/settings.service';
import { computeInvoiceAmounts, INVALID_VAT_SPLIT, parseVatSplit, type VatPart } from './invoice-amounts';
import { invoiceMailRef } from './invoice-delivered';
import { assignInvoiceNumber } from './invoice-number';
import { renderInvoicePdf, type InvoiceDocument } from './invoice-pdf';
import { addDays } from './nl-format';

export const ORDER_NOT_FOUND = 'Bestelling niet gevonden.';
export const INVOICE_QUEUED = 'Factuur staat klaar en wordt verstuurd zodra de mailserver bereikbaar is.';
export const INVOICE_QUEUED_NO_SMTP =
  'Factuur staat klaar in de wachtrij, maar er is geen mailserver ingesteld (SMTP_URL): de mail wordt verstuurd zodra die is ingesteld.';
export const invoiceSentMessage = (invoiceNumber: string, email: string) => `Factuur ${invoiceNumber} is verstuurd naar ${email}.`;

export interface SendInvoiceResult {
  success: true;
  invoice_number: string;
  /** True while the mail waits in the outbox (SMTP down or not configured); false once the server took it. */
  queued: boolean;
  message: string;
  mail_id: number;
}

type OrderRow = typeof orders.$inferSelect;

interface InvoiceSettings {
  club: InvoiceDocument['club'];
  unitPriceCents: number;
  split: VatPart[];
  paymentTermDays: number;
}

/** Everything the invoice needs from the settings (DESIGN §3), checked before a number is used up. */
async function readInvoiceSettings(ctx: RequestCtx): Promise<InvoiceSettings> {
  const split = parseVatSplit(await getSetting(ctx, 'vat_split'));
  if (!split) throw badRequest(INVALID_VAT_SPLIT);
  const price = await getIntegerSetting(ctx, 'package_price');
  if (price < 0) throw badRequest('De pakketprijs (instelling package_price) is ongeldig.');
  return {
    club: {
      name: await getStringSetting(ctx, 'club_name'),
      address: await getStringSetting(ctx, 'club_address'),
      email: await getStringSetting(ctx, 'club_email'),
      kvkNumber: await getStringSetting(ctx, 'club_kvk_number'),
      vatId: await getStringSetting(ctx, 'club_vat_id'),
      iban: await getStringSetting(ctx, 'club_iban'),
    },
    // package_price is in whole euros (spec §9: 75 euro excl. VAT); money is cents from here on.
    unitPriceCents: price * 100,
    split,
    paymentTermDays: Math.max(1, await getIntegerSetting(ctx, 'invoice_payment_term_days')),
  };
}

export function invoiceFileKey(invoiceNumber: string): string {
  return `invoices/${invoiceNumber}.pdf`;
}

function invoiceDocument(order: OrderRow, settings: InvoiceSettings, invoiceNumber: string, invoiceDate: Date): InvoiceDocument {
  return {
    invoiceNumber,
    orderReference: order.reference,
    invoiceDate,
    // The order holds no delivery date: the goods are taken as supplied on the invoice date.
    supplyDate: invoiceDate,
    dueDate: addDays(invoiceDate, settings.paymentTermDays),
    paymentTermDays: settings.paymentTermDays,
    club: settings.club,
    customer: { name: order.name, address: order.address, postalCode: order.postalCode, city: order.city, email: order.email },
    description: 'Kerstpakket',
    amounts: computeInvoiceAmounts(order.amount, settings.unitPriceCents, settings.split),
  };
}

function invoiceMailText(order: OrderRow, settings: InvoiceSettings, invoiceNumber: string): string {
  const { club } = settings;
  return [
    `Beste ${order.name},`,
    '',
    `Hartelijk dank voor je bestelling bij de kerstactie van ${club.name}. In de bijlage vind je factuur ${invoiceNumber} voor je bestelling ${order.reference}.`,
    '',
    `Wil je het totaalbedrag binnen ${settings.paymentTermDays} dagen overmaken op IBAN ${club.iban} ten name van ${club.name}, onder vermelding van ${invoiceNumber}? Het bedrag en alle gegevens staan op de factuur.`,
    '',
    'De volledige opbrengst gaat naar goede doelen in de regio.',
    '',
    'Met vriendelijke groet,',
    club.name,
  ].join('\n');
}

/**
 * Puts the invoice mail in the outbox, unless one for this order is already waiting there: then that
 * one is made due now (and addressed to the order's current e-mail), so a resend while SMTP is down
 * does not pile up copies for the customer. A message that failed for good stays as it is (the admin
 * sees it) and a new one is queued. Sends at the same moment queue one copy between them.
 */
async function queueInvoiceMail(ctx: RequestCtx, order: OrderRow, settings: InvoiceSettings, invoiceNumber: string): Promise<number> {
  const relatedRef = invoiceMailRef(order.id);
  await enqueueMailUnlessWaiting(ctx.db, ctx.clock, {
    kind: 'invoice',
    to: order.email,
    subject: `Factuur ${invoiceNumber} – kerstactie ${settings.club.name}`,
    text: invoiceMailText(order, settings, invoiceNumber),
    attachments: [{ filename: `Factuur-${invoiceNumber}.pdf`, contentType: 'application/pdf', fileKey: invoiceFileKey(invoiceNumber) }],
    relatedRef,
  });
  // The newest copy is the one that waits: ours, or the one that kept ours out (or, when a delivery run
  // took it at once, the one just sent).
  const [latest] = await ctx.db
    .select({ id: mailOutbox.id, status: mailOutbox.status })
    .from(mailOutbox)
    .where(and(eq(mailOutbox.kind, 'invoice'), eq(mailOutbox.relatedRef, relatedRef)))
    .orderBy(desc(mailOutbox.id))
    .limit(1);
  if (latest!.status !== 'queued') return latest!.id;
  // A copy that was already waiting: make it due now, to the order's current address.
  await ctx.db
    .update(mailOutbox)
    .set({ toAddress: headerValue(order.email), nextAttemptAt: ctx.clock.now().getTime() })
    .where(and(eq(mailOutbox.id, latest!.id), eq(mailOutbox.status, 'queued')));
  return latest!.id;
}

/**
 * spec §7 POST /orders/sendInvoice?id=; DESIGN §3 invoices; issue 6 item 3.
 *
 * The first send gives the order its invoice number (gap-free per year) and invoice date and stores
 * the PDF under `invoices/<number>.pdf`; a resend mails that same PDF again (an issued invoice does not
 * change). The mail goes through the outbox and, when SMTP is configured, is delivered right away;
 * `invoice_sent` turns true only when the SMTP server accepted it (here or on a later retry).
 */
export async function sendInvoice(ctx: RequestCtx, orderId: number): Promise<SendInvoiceResult> {
  requireManagement(ctx);
  const [order] = await ctx.db.select().from(orders).where(eq(orders.id, orderId)).limit(1);
  if (!order) throw new AppError(404, ORDER_NOT_FOUND);
  const settings = await readInvoiceSettings(ctx);

  const assigned = await assignInvoiceNumber(ctx.db, orderId, ctx.clock.now());
  if (!assigned) throw new AppError(404, ORDER_NOT_FOUND);
  const key = invoiceFileKey(assigned.invoiceNumber);
  if (!(await ctx.files.exists(key))) {
    const pdf = await renderInvoicePdf(invoiceDocument(order, settings, assigned.invoiceNumber, new Date(assigned.invoiceDate)));
    await ctx.files.put(key, pdf, { size: pdf.length, contentType: 'application/pdf' });
  }

  const mailId = await queueInvoiceMail(ctx, order, settings, assigned.invoiceNumber);
  await writeAudit(ctx, { action: 'invoice.sent', target: `order:${order.id} (${order.reference})`, details: { invoice_number: assigned.invoiceNumber, to: order.email } });
  if (ctx.mailTransport) {
    try {
      await deliverOutbox(ctx);
    } catch (error) {
      // The mail is safe in the outbox; the timer or cron delivers it later.
      ctx.log.error('Delivering the outbox after an invoice failed', { requestId: ctx.requestId, error: String(error) });
    }
  }
  const [mail] = await ctx.db.select({ status: mailOutbox.status }).from(mailOutbox).where(eq(mailOutbox.id, mailId)).limit(1);
  const sent = mail?.status === 'sent';
  return {
    success: true,
    invoice_number: assigned.invoiceNumber,
    queued: !sent,
    message: sent ? invoiceSentMessage(assigned.invoiceNumber, order.email) : ctx.mailTransport ? INVOICE_QUEUED : INVOICE_QUEUED_NO_SMTP,
    mail_id: mailId,
  };
}

/** The stored PDF of an order's invoice, for the admin to look at; null before the first send. */
export async function getInvoicePdf(ctx: RequestCtx, orderId: number): Promise<{ invoiceNumber: string; body: ReadableStream<Uint8Array>; size: number } | null> {
  requireManagement(ctx);
  const [order] = await ctx.db.select({ invoiceNumber: orders.invoiceNumber }).from(orders).where(eq(orders.id, orderId)).limit(1);
  if (!order) throw new AppError(404, ORDER_NOT_FOUND);
  if (!order.invoiceNumber) return null;
  const file = await ctx.files.get(invoiceFileKey(order.invoiceNumber));
  return file ? { invoiceNumber: order.invoiceNumber, ...file } : null;
}
