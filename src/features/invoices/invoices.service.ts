import { encodeHexLowerCase } from '@oslojs/encoding';
import { and, desc, eq, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import type { ClubDeps, RequestCtx } from '../../context';
import { auditIfChanged, writeAudit, type AuditCtx } from '../audit/audit';
import { mailOutbox, orders } from '../../db/schema';
import { AppError } from '../../core/errors';
import { enqueueMail, enqueueMailUnlessWaiting, headerValue, type MailAttachmentRef } from '../../platform/mail';
import { requireManagement } from '../auth/permissions';
import { ORDER_NOT_FOUND } from '../orders/orders.service';
import { deliverNowOnly } from '../mail/mail-delivery';
import { getIntegerSetting, getSetting, getStringSetting } from '../settings/settings.service';
import { invoiceSettingProblems, INVOICE_IDENTITY_SETTINGS, type InvoiceSettingProblem } from '../settings/setting-rules';
import { computeInvoiceAmounts, INVALID_VAT_SPLIT, parseVatSplit, type InvoiceAmounts, type VatPart } from './invoice-amounts';
import { INVOICE_MAIL_KIND, invoiceMailRef } from './invoice-delivered';
import { assignCreditNoteNumber, assignInvoiceNumber, parseStoredAmounts } from './invoice-number';
import type { InvoiceDocument } from './invoice-pdf';
import { paymentQrPng } from './epc-qr';
import { mintOrderLink } from '../orders/order-links';
import { offersOnlinePayment, onlinePaymentSettings } from '../settings/online-payment-settings';
import { campaignYear, overdueBefore } from '../../core/calendar';
import { randomBytes } from '../../platform/crypto';
import { enforceRateLimit, type RateLimitRule } from '../../platform/rate-limit';
import { markNumberDrawn, skipNumbersDrawnBefore } from './invoice-series';
import { formatDateLong, formatEuro } from '../../core/nl-format';
import { dueDay, isPastDue, paymentDueDate } from './payment-term';

export const INVOICE_QUEUED = 'Factuur staat klaar en wordt verstuurd zodra de mailserver bereikbaar is.';
export const INVOICE_QUEUED_NO_SMTP =
  'Factuur staat klaar in de wachtrij, maar er is geen mailserver ingesteld (SMTP_URL): de mail wordt verstuurd zodra die is ingesteld.';
export const invoiceSentMessage = (invoiceNumber: string, email: string) => `Factuur ${invoiceNumber} is verstuurd naar ${email}.`;
export const ORDER_CREDITED = 'Deze bestelling is gecrediteerd: er kan geen factuur of herinnering meer voor worden verstuurd.';
export const NOTHING_TO_CREDIT = 'Deze bestelling heeft nog geen factuur: er is niets te crediteren.';
export const alreadyCredited = (creditNoteNumber: string) => `Deze factuur is al gecrediteerd met creditnota ${creditNoteNumber}.`;
export const REMINDER_NEEDS_INVOICE = 'Deze bestelling heeft nog geen factuur: verstuur eerst de factuur.';
export const REMINDER_ALREADY_PAID = 'Deze bestelling is al betaald: een herinnering is niet nodig.';
export const reminderNotDue = (invoiceNumber: string, dueDate: Date) =>
  `De betaaltermijn van factuur ${invoiceNumber} loopt nog tot ${formatDateLong(dueDate)}: een herinnering is nu nog niet nodig.`;
export const reminderSentMessage = (invoiceNumber: string, email: string) => `Herinnering voor factuur ${invoiceNumber} is verstuurd naar ${email}.`;
export const REMINDER_QUEUED = 'Herinnering staat klaar en wordt verstuurd zodra de mailserver bereikbaar is.';
export const creditNoteSentMessage = (creditNoteNumber: string, email: string) => `Creditnota ${creditNoteNumber} is verstuurd naar ${email}.`;
export const CREDIT_NOTE_QUEUED = 'Creditnota staat klaar en wordt verstuurd zodra de mailserver bereikbaar is.';

/**
 * docs/decisions/049 "Also": an admin's click (or a stolen session) cannot turn the club's mail server into a
 * stream of the same invoice or reminder: each may go to one order at most 3 times in 24 hours.
 */
export const DOCUMENT_SENDS_PER_DAY: RateLimitRule = { limit: 3, windowMs: 24 * 60 * 60 * 1000 };
export const INVOICE_SEND_LIMITED = 'Deze factuur is de afgelopen 24 uur al 3 keer verstuurd: probeer het later opnieuw.';
export const REMINDER_SEND_LIMITED = 'Voor deze bestelling zijn de afgelopen 24 uur al 3 herinneringen verstuurd: probeer het later opnieuw.';

/** The inline image's Content-ID in the invoice and reminder mails (the HTML refers to cid:betaal-qr). */
const QR_CONTENT_ID = 'betaal-qr';

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
  /** Online payment is offered (docs/decisions/066): new invoices and the mails carry the order page link. */
  orderPage: boolean;
}

/** What the invoice services need: the request's context, or the app's for the timer's reminders. */
type InvoiceDeps = Pick<ClubDeps, 'db' | 'siteOrigin' | 'files' | 'clock' | 'settingsCache' | 'mailTransport' | 'config' | 'log' | 'secretKey'>;

/** The club's IBAN, KvK number and VAT id as they stand, and what is wrong with them (docs/decisions/019). */
async function identityProblems(deps: Pick<ClubDeps, 'db' | 'settingsCache'>): Promise<InvoiceSettingProblem[]> {
  const values: Record<string, string> = {};
  for (const setting of INVOICE_IDENTITY_SETTINGS) values[setting.key] = await getStringSetting(deps, setting.key);
  return invoiceSettingProblems(values);
}

/**
 * Everything an invoice needs from the settings (docs/architecture.md §3), checked before a number is used up. While
 * the club's IBAN, KvK number or VAT id is a placeholder or invalid nothing is sent (docs/architecture.md §5: 409,
 * naming the setting).
 */
async function readInvoiceSettings(deps: InvoiceDeps): Promise<InvoiceSettings> {
  const [problem] = await identityProblems(deps);
  if (problem) throw new AppError('INVOICE_SETTINGS_INCOMPLETE', problem.message);
  const split = parseVatSplit(await getSetting(deps, 'vat_split'));
  if (!split) throw new AppError('VAT_SPLIT_INVALID', INVALID_VAT_SPLIT);
  const price = await getIntegerSetting(deps, 'package_price');
  if (price < 0) throw new AppError('PACKAGE_PRICE_INVALID', 'De pakketprijs (instelling package_price) is ongeldig.');
  return {
    club: {
      name: await getStringSetting(deps, 'club_name'),
      address: await getStringSetting(deps, 'club_address'),
      email: await getStringSetting(deps, 'club_email'),
      kvkNumber: await getStringSetting(deps, 'club_kvk_number'),
      vatId: await getStringSetting(deps, 'club_vat_id'),
      iban: await getStringSetting(deps, 'club_iban'),
    },
    // package_price is in whole euros (docs/product.md §9: 75 euro excl. VAT); money is cents from here on.
    unitPriceCents: price * 100,
    split,
    paymentTermDays: await paymentTermDays(deps),
    orderPage: offersOnlinePayment(await onlinePaymentSettings(deps)),
  };
}

/**
 * For the dashboard: whether invoices can go out, and if not, why (the warning banner); and the payment
 * term, so a reminder before an invoice's due date is warned about before it is asked for (docs/decisions/059).
 */
export async function invoiceReadiness(ctx: RequestCtx): Promise<{ ready: boolean; problems: InvoiceSettingProblem[]; payment_term_days: number }> {
  requireManagement(ctx);
  const problems = await identityProblems(ctx);
  return { ready: problems.length === 0, problems, payment_term_days: await paymentTermDays(ctx) };
}

async function paymentTermDays(deps: Pick<ClubDeps, 'db' | 'settingsCache'>): Promise<number> {
  return Math.max(1, await getIntegerSetting(deps, 'invoice_payment_term_days'));
}

/**
 * A new storage key for a document of `number`: the number for whoever browses the storage, and a random part
 * so a key never repeats, not even when a restored database hands a number out again (docs/decisions/049).
 */
export function newDocumentKey(number: string, suffix: '.pdf' | '.xml' | '-betaal-qr.png' | '-rest-qr.png'): string {
  return `invoices/${number}-${encodeHexLowerCase(randomBytes(8))}${suffix}`;
}

type FileKeyColumn = 'invoiceFileKey' | 'invoiceQrKey' | 'creditNoteFileKey' | 'invoiceUblKey' | 'creditNoteUblKey';

/**
 * Stores a document made for the order under a new key and records that key on the row, but only where the
 * row still names `previous` (null, or a key whose file is gone): of two requests making the same document,
 * one key wins and the other's file is dropped. Answers the key the row now names.
 */
async function storeDocument(
  deps: Pick<ClubDeps, 'db' | 'files'>,
  orderId: number,
  column: FileKeyColumn,
  previous: string | null,
  key: string,
  bytes: Uint8Array,
  contentType: string,
): Promise<string> {
  await deps.files.put(key, bytes, { size: bytes.length, contentType });
  await deps.db
    .update(orders)
    .set({ [column]: key })
    .where(and(eq(orders.id, orderId), previous === null ? isNull(orders[column]) : eq(orders[column], previous)));
  const [row] = await deps.db.select({ key: orders[column] }).from(orders).where(eq(orders.id, orderId)).limit(1);
  const recorded = row?.key ?? null;
  if (recorded !== key) await deps.files.delete(key).catch(() => undefined);
  if (!recorded) throw new Error(`Order ${orderId} lost its ${column}`);
  return recorded;
}

/** The row's key when its file is there; null when the document has to be made (again). */
async function presentKey(deps: Pick<ClubDeps, 'files'>, key: string | null): Promise<string | null> {
  return key !== null && (await deps.files.exists(key)) ? key : null;
}

/** The sums an issued invoice billed: stored at the first send; computed anew only for invoices from before. */
function issuedAmounts(order: OrderRow, settings: InvoiceSettings): InvoiceAmounts {
  return parseStoredAmounts(order.invoiceAmounts) ?? computeInvoiceAmounts(order.amount, settings.unitPriceCents, settings.split);
}

export type IssuedDocumentKind = 'invoice' | 'credit_note';
export type DocumentFormat = 'pdf' | 'xml';

function documentBase(order: OrderRow, settings: InvoiceSettings, invoiceNumber: string, invoiceDate: Date): Omit<InvoiceDocument, 'kind'> {
  return {
    invoiceNumber,
    orderReference: order.reference,
    invoiceDate,
    // The day the packages were handed over, once they were; an invoice made before then names no
    // delivery date rather than a wrong one (docs/decisions/059).
    supplyDate: order.delivered && order.deliveredAt ? new Date(order.deliveredAt) : null,
    dueDate: paymentDueDate(invoiceDate, settings.paymentTermDays),
    paymentTermDays: settings.paymentTermDays,
    club: settings.club,
    customer: {
      name: order.name,
      address: order.address,
      postalCode: order.postalCode,
      city: order.city,
      email: order.email,
      kvkNumber: order.customerKvkNumber,
      vatId: order.customerVatId,
    },
    description: 'Kerstpakket',
    amounts: issuedAmounts(order, settings),
  };
}

/**
 * An order's issued invoice or credit note as its PDF and its UBL are both drawn from it: the stored number, date and
 * billed sums; a credit note names the invoice it corrects.
 */
function issuedDocument(order: OrderRow, settings: InvoiceSettings, which: IssuedDocumentKind): InvoiceDocument {
  const invoiceDate = new Date(order.invoiceDate!);
  if (which === 'invoice') return { ...documentBase(order, settings, order.invoiceNumber!, invoiceDate), kind: 'invoice' };
  return {
    ...documentBase(order, settings, order.creditNoteNumber!, new Date(order.creditNoteDate!)),
    kind: 'credit_note',
    corrects: { invoiceNumber: order.invoiceNumber!, invoiceDate },
  };
}

/** pdf-lib is the largest part of the server; it is evaluated when the first document is made, not at every start. */
function loadPdfRenderer() {
  return import('./invoice-pdf');
}

/**
 * The stored files of an issued invoice: the PDF (made once, at the first send, then attached byte for
 * byte to every resend and reminder) and the payment QR for the mail, each reached only through the key
 * on the order's row. One that is missing is made again under a new key (docs/decisions/049).
 */
async function ensureInvoiceFiles(deps: InvoiceDeps, order: OrderRow, settings: InvoiceSettings): Promise<{ pdf: MailAttachmentRef; qr: MailAttachmentRef }> {
  const invoiceNumber = order.invoiceNumber!;
  const amounts = issuedAmounts(order, settings);
  let pdfKey = await presentKey(deps, order.invoiceFileKey);
  let qrKey = await presentKey(deps, order.invoiceQrKey);
  if (!pdfKey || !qrKey) {
    const qr = await paymentQrPng({ iban: settings.club.iban, name: settings.club.name, amountCents: amounts.totalCents, remittance: invoiceNumber });
    qrKey ??= await storeDocument(deps, order.id, 'invoiceQrKey', order.invoiceQrKey, newDocumentKey(invoiceNumber, '-betaal-qr.png'), qr, 'image/png');
    if (!pdfKey) {
      const { renderInvoicePdf } = await loadPdfRenderer();
      const orderPageUrl = settings.orderPage ? await mintOrderLink(deps, order.id) : undefined;
      const pdf = await renderInvoicePdf({ ...issuedDocument(order, settings, 'invoice'), paymentQrPng: qr, ...(orderPageUrl ? { orderPageUrl } : {}) });
      pdfKey = await storeDocument(deps, order.id, 'invoiceFileKey', order.invoiceFileKey, newDocumentKey(invoiceNumber, '.pdf'), pdf, 'application/pdf');
    }
  }
  return {
    pdf: { filename: documentFilename('invoice', invoiceNumber, 'pdf'), contentType: 'application/pdf', fileKey: pdfKey },
    qr: { filename: 'betaal-qr.png', contentType: 'image/png', fileKey: qrKey, contentId: QR_CONTENT_ID },
  };
}

/**
 * A payment QR for what part-payments left open, for one reminder: the invoice's own QR asks the whole amount.
 * Reached only through the reminder's outbox row, like the invoice's files through the order's.
 */
async function restQr(deps: InvoiceDeps, order: OrderRow, settings: InvoiceSettings, dueCents: number): Promise<MailAttachmentRef> {
  const bytes = await paymentQrPng({ iban: settings.club.iban, name: settings.club.name, amountCents: dueCents, remittance: order.invoiceNumber! });
  const key = newDocumentKey(order.invoiceNumber!, '-rest-qr.png');
  await deps.files.put(key, bytes, { size: bytes.length, contentType: 'image/png' });
  return { filename: 'betaal-qr.png', contentType: 'image/png', fileKey: key, contentId: QR_CONTENT_ID };
}

/** A customer with a KvK number or VAT id gets the UBL of its documents beside the PDF (docs/decisions/078). */
const isBusinessCustomer = (order: OrderRow) => order.customerKvkNumber !== null || order.customerVatId !== null;

/** The document's name for whoever downloads or receives it: 'Factuur-F2026-0007.pdf', 'Creditnota-F2026-0008.xml'. */
const documentFilename = (which: IssuedDocumentKind, number: string, format: DocumentFormat) =>
  `${which === 'invoice' ? 'Factuur' : 'Creditnota'}-${number}.${format}`;

/** The row's column that holds each stored document's key. */
const DOCUMENT_KEY_COLUMNS = {
  invoice: { pdf: 'invoiceFileKey', xml: 'invoiceUblKey' },
  credit_note: { pdf: 'creditNoteFileKey', xml: 'creditNoteUblKey' },
} as const satisfies Record<IssuedDocumentKind, Record<DocumentFormat, FileKeyColumn>>;

/** UTF-8 is what the XML declares; saying so in the header too keeps a browser or mail client from guessing. */
const UBL_CONTENT_TYPE = 'application/xml; charset=utf-8';

/**
 * The stored UBL of an issued invoice or credit note (DESIGN §6, docs/decisions/077 and 078), made from the same document
 * as its PDF at the first mail or download, then mailed and downloaded byte for byte, reached only through the key on
 * the order's row; made again under a new key when its file is gone, as the PDF is.
 */
async function ensureUbl(deps: InvoiceDeps, order: OrderRow, settings: InvoiceSettings, which: IssuedDocumentKind): Promise<MailAttachmentRef> {
  const column = DOCUMENT_KEY_COLUMNS[which].xml;
  const number = (which === 'invoice' ? order.invoiceNumber : order.creditNoteNumber)!;
  let key = await presentKey(deps, order[column]);
  if (!key) {
    const { renderUbl } = await import('./ubl');
    const bytes = new TextEncoder().encode(renderUbl(issuedDocument(order, settings, which)));
    key = await storeDocument(deps, order.id, column, order[column], newDocumentKey(number, '.xml'), bytes, UBL_CONTENT_TYPE);
  }
  return { filename: documentFilename(which, number, 'xml'), contentType: UBL_CONTENT_TYPE, fileKey: key };
}

/** What an invoice mail and its reminders attach: the PDF, a business customer's UBL, and the QR the text shows. */
async function invoiceAttachments(deps: InvoiceDeps, order: OrderRow, settings: InvoiceSettings, pdf: MailAttachmentRef, qr: MailAttachmentRef) {
  return isBusinessCustomer(order) ? [pdf, await ensureUbl(deps, order, settings, 'invoice'), qr] : [pdf, qr];
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The HTML twin of a plain-text mail: its paragraphs (a link in them clickable), and the payment QR to scan with a banking app. */
function htmlWithQr(text: string): string {
  const paragraphs = text.split(/\n{2,}/).map(
    (p) =>
      `<p>${escapeHtml(p)
        .replace(/https?:\/\/[^\s<]+/g, (url) => `<a href="${url}">${url}</a>`)
        .replace(/\n/g, '<br>')}</p>`,
  );
  const qr = `<p><img src="cid:${QR_CONTENT_ID}" alt="Betaal-QR-code" width="180" height="180"><br>Scan de QR-code met je bank-app om te betalen.</p>`;
  return `<!doctype html><html lang="nl"><body style="font-family:Arial,sans-serif;font-size:14px;line-height:1.5">${paragraphs.join('')}${qr}</body></html>`;
}

function paymentLines(order: OrderRow, settings: InvoiceSettings, amounts: InvoiceAmounts, dueCents = amounts.totalCents): string {
  const { club } = settings;
  const total = formatEuro(dueCents);
  return `Wil je ${total} binnen ${settings.paymentTermDays} dagen overmaken op IBAN ${club.iban} ten name van ${club.name}, onder vermelding van ${order.invoiceNumber}? Je kunt ook de QR-code hieronder scannen met je bank-app.`;
}

/** docs/decisions/066: beside the transfer and its QR code, the order page where the customer can pay online. */
function onlineLines(orderPageUrl: string | null): string[] {
  return orderPageUrl ? [`Liever online betalen? Dat kan met iDEAL op je bestelpagina:`, orderPageUrl, ''] : [];
}

function invoiceMailText(order: OrderRow, settings: InvoiceSettings, amounts: InvoiceAmounts, orderPageUrl: string | null): string {
  const { club } = settings;
  return [
    `Beste ${order.name},`,
    '',
    `Hartelijk dank voor je bestelling bij de kerstactie van ${club.name}. In de bijlage vind je factuur ${order.invoiceNumber} voor je bestelling ${order.reference}.`,
    '',
    paymentLines(order, settings, amounts),
    '',
    ...onlineLines(orderPageUrl),
    'De volledige opbrengst gaat naar goede doelen in de regio.',
    '',
    'Met vriendelijke groet,',
    club.name,
  ].join('\n');
}

/** What a reminder asks for: the whole invoice, or what part-payments left open (docs/decisions/057). */
function reminderDueCents(order: OrderRow, amounts: InvoiceAmounts): number {
  return order.paidCents > 0 ? Math.max(amounts.totalCents - order.paidCents, 0) : amounts.totalCents;
}

function reminderMailText(order: OrderRow, settings: InvoiceSettings, amounts: InvoiceAmounts, orderPageUrl: string | null): string {
  const { club } = settings;
  const dueCents = reminderDueCents(order, amounts);
  const state =
    order.paidCents > 0
      ? `Volgens onze administratie hebben we daarvan ${formatEuro(order.paidCents)} ontvangen en staat er nog ${formatEuro(dueCents)} open.`
      : 'Volgens onze administratie is die nog niet betaald.';
  return [
    `Beste ${order.name},`,
    '',
    `Op ${formatDateLong(new Date(order.invoiceDate!))} hebben we je factuur ${order.invoiceNumber} gestuurd voor je bestelling ${order.reference} bij de kerstactie van ${club.name}. ${state} De factuur zit opnieuw in de bijlage.`,
    '',
    paymentLines(order, settings, amounts, dueCents),
    '',
    ...onlineLines(orderPageUrl),
    'Heb je al betaald? Dan kruisen onze berichten elkaar en kun je deze herinnering als niet verzonden beschouwen.',
    '',
    'Met vriendelijke groet,',
    club.name,
  ].join('\n');
}

async function requireOrder(deps: Pick<ClubDeps, 'db'>, orderId: number): Promise<OrderRow> {
  const [order] = await deps.db.select().from(orders).where(eq(orders.id, orderId)).limit(1);
  if (!order) throw new AppError('ORDER_NOT_FOUND', ORDER_NOT_FOUND);
  return order;
}

const orderTarget = (order: OrderRow) => `order:${order.id} (${order.reference})`;

/**
 * Puts the invoice mail in the outbox, unless one for this order is already waiting there: then that
 * one is made due now (and addressed to the order's current e-mail), so a resend while SMTP is down
 * does not pile up copies for the customer. A message that failed for good stays as it is (the admin
 * sees it) and a new one is queued. Sends at the same moment queue one copy between them.
 */
async function queueInvoiceMail(
  ctx: RequestCtx,
  order: OrderRow,
  settings: InvoiceSettings,
  files: { pdf: MailAttachmentRef; qr: MailAttachmentRef },
): Promise<number> {
  const relatedRef = invoiceMailRef(order.id);
  const attachments = await invoiceAttachments(ctx, order, settings, files.pdf, files.qr);
  const orderPageUrl = settings.orderPage ? await mintOrderLink(ctx, order.id) : null;
  const text = invoiceMailText(order, settings, issuedAmounts(order, settings), orderPageUrl);
  await enqueueMailUnlessWaiting(ctx.db, ctx.clock, {
    kind: INVOICE_MAIL_KIND,
    to: order.email,
    subject: `Factuur ${order.invoiceNumber} – kerstactie ${settings.club.name}`,
    text,
    html: htmlWithQr(text),
    attachments,
    relatedRef,
  });
  // The newest copy is the one that waits: ours, or the one that kept ours out (or, when a delivery run
  // took it at once, the one just sent).
  const [latest] = await ctx.db
    .select({ id: mailOutbox.id, status: mailOutbox.status })
    .from(mailOutbox)
    .where(and(eq(mailOutbox.kind, INVOICE_MAIL_KIND), eq(mailOutbox.relatedRef, relatedRef)))
    .orderBy(desc(mailOutbox.id))
    .limit(1);
  if (latest!.status !== 'queued') return latest!.id;
  // A copy that was already waiting: make it due now, to the order's current address and files.
  await ctx.db
    .update(mailOutbox)
    .set({ toAddress: headerValue(order.email), attachments: JSON.stringify(attachments), nextAttemptAt: ctx.clock.now().getTime() })
    .where(and(eq(mailOutbox.id, latest!.id), eq(mailOutbox.status, 'queued')));
  return latest!.id;
}

async function mailStatus(deps: Pick<ClubDeps, 'db'>, mailId: number): Promise<'sent' | 'waiting'> {
  const [mail] = await deps.db.select({ status: mailOutbox.status }).from(mailOutbox).where(eq(mailOutbox.id, mailId)).limit(1);
  return mail?.status === 'sent' ? 'sent' : 'waiting';
}

/** An invoice or reminder mail in the outbox, not yet delivered: its row, and what a send answers with. */
export interface QueuedSend {
  mailId: number;
  invoiceNumber: string;
  email: string;
}

/**
 * The order's part of an invoice send, without waiting for SMTP: a bulk send queues every order's mail
 * this way and then drains the queue once, after its answer (docs/decisions/053).
 *
 * The first send gives the order its invoice number (gap-free per year), invoice date and billed sums,
 * and stores the PDF (with the payment QR) under a key recorded on the order (docs/decisions/049); a resend mails that same file
 * again (an issued invoice does not change).
 */
export async function queueInvoice(ctx: RequestCtx, orderId: number): Promise<QueuedSend> {
  requireManagement(ctx);
  let order = await requireOrder(ctx, orderId);
  if (order.cancelled) throw new AppError('ORDER_CREDITED', ORDER_CREDITED);
  const settings = await readInvoiceSettings(ctx);
  await enforceRateLimit(ctx.db, ctx.clock, `invoice-send:${order.id}`, DOCUMENT_SENDS_PER_DAY, INVOICE_SEND_LIMITED);

  if (!order.invoiceNumber) {
    const amounts = computeInvoiceAmounts(order.amount, settings.unitPriceCents, settings.split);
    const now = ctx.clock.now();
    await skipNumbersDrawnBefore(ctx, campaignYear(now));
    const issued = await assignInvoiceNumber(ctx.db, orderId, now, amounts);
    if (!issued) throw new AppError('ORDER_NOT_FOUND', ORDER_NOT_FOUND);
    await markNumberDrawn(ctx.files, issued.invoiceNumber);
    order = await requireOrder(ctx, orderId);
  }
  const files = await ensureInvoiceFiles(ctx, order, settings);
  const mailId = await queueInvoiceMail(ctx, order, settings, files);
  await writeAudit(ctx, { action: 'invoice.sent', target: orderTarget(order), details: { invoice_number: order.invoiceNumber, to: order.email } });
  return { mailId, invoiceNumber: order.invoiceNumber!, email: order.email };
}

/**
 * docs/product.md §7 POST /orders/sendInvoice?id=; docs/architecture.md §3 invoices, §5; docs/decisions/018.
 *
 * Queues the invoice (queueInvoice) and, when SMTP is configured, delivers it before answering, so the
 * admin sees whether it left; `invoice_sent` turns true only when the SMTP server accepted it.
 */
export async function sendInvoice(ctx: RequestCtx, orderId: number): Promise<SendInvoiceResult> {
  const { mailId, invoiceNumber, email } = await queueInvoice(ctx, orderId);
  await deliverNowOnly(ctx, [mailId]);
  const sent = (await mailStatus(ctx, mailId)) === 'sent';
  return {
    success: true,
    invoice_number: invoiceNumber,
    queued: !sent,
    message: sent ? invoiceSentMessage(invoiceNumber, email) : ctx.mailTransport ? INVOICE_QUEUED : INVOICE_QUEUED_NO_SMTP,
    mail_id: mailId,
  };
}

/** Why an order cannot get a reminder, or null when it can (invoiced, unpaid, not credited). */
function reminderRefusal(order: OrderRow): AppError | null {
  if (!order.invoiceNumber) return new AppError('REMINDER_NEEDS_INVOICE', REMINDER_NEEDS_INVOICE);
  if (order.cancelled) return new AppError('ORDER_CREDITED', ORDER_CREDITED);
  if (order.paid) return new AppError('ALREADY_PAID', REMINDER_ALREADY_PAID);
  return null;
}

/**
 * Counts a reminder on the order and queues its mail (the stored invoice PDF attached, the payment QR
 * inline). The count goes up first, guarded, so two isolates running the automatic reminders never
 * both send one: only the request whose update changed the row queues the mail.
 */
async function queueReminder(deps: InvoiceDeps & AuditCtx, order: OrderRow, settings: InvoiceSettings, onlyFirst: boolean): Promise<number | null> {
  const now = deps.clock.now().toISOString();
  const [[claimed]] = await deps.db.batch([
    deps.db
      .update(orders)
      .set({ remindersSent: sql`${orders.remindersSent} + 1`, lastReminderAt: now, updatedAt: now })
      .where(
        and(
          eq(orders.id, order.id),
          isNotNull(orders.invoiceNumber),
          eq(orders.paid, false),
          eq(orders.cancelled, false),
          onlyFirst ? eq(orders.remindersSent, 0) : eq(orders.remindersSent, order.remindersSent),
        ),
      )
      .returning({ id: orders.id }),
    auditIfChanged(deps, {
      action: 'invoice.reminder_sent',
      target: orderTarget(order),
      details: { invoice_number: order.invoiceNumber, to: order.email, automatic: onlyFirst },
    }),
  ]);
  if (!claimed) return null;
  const files = await ensureInvoiceFiles(deps, order, settings);
  const amounts = issuedAmounts(order, settings);
  const orderPageUrl = settings.orderPage ? await mintOrderLink(deps, order.id) : null;
  const text = reminderMailText(order, settings, amounts, orderPageUrl);
  return enqueueMail(deps.db, deps.clock, {
    kind: 'reminder',
    to: order.email,
    subject: `Herinnering: factuur ${order.invoiceNumber} – kerstactie ${settings.club.name}`,
    text,
    html: htmlWithQr(text),
    attachments: await invoiceAttachments(
      deps,
      order,
      settings,
      files.pdf,
      order.paidCents > 0 ? await restQr(deps, order, settings, reminderDueCents(order, amounts)) : files.qr,
    ),
    relatedRef: `reminder:${order.id}`,
  });
}

/** How a reminder is asked for: `force` sends one before the invoice's payment term has run out. */
export interface ReminderOptions {
  force?: boolean | undefined;
}

/**
 * The order's part of a reminder, without waiting for SMTP (see queueInvoice): invoiced, unpaid, not
 * credited; counted on the order and queued with the stored invoice attached. Before the payment term has
 * run out it is refused (409, with the due date as `due_date`) unless `force` says the sender saw that
 * (docs/decisions/059).
 */
export async function queueReminderSend(ctx: RequestCtx, orderId: number, options: ReminderOptions = {}): Promise<QueuedSend> {
  requireManagement(ctx);
  const order = await requireOrder(ctx, orderId);
  const refusal = reminderRefusal(order);
  if (refusal) throw refusal;
  const settings = await readInvoiceSettings(ctx);
  if (!options.force && !isPastDue(order.invoiceDate!, settings.paymentTermDays, ctx.clock.now())) {
    const invoiceDate = new Date(order.invoiceDate!);
    throw new AppError('REMINDER_NOT_DUE', reminderNotDue(order.invoiceNumber!, paymentDueDate(invoiceDate, settings.paymentTermDays)), {
      due_date: dueDay(invoiceDate, settings.paymentTermDays),
    });
  }
  await enforceRateLimit(ctx.db, ctx.clock, `reminder-send:${order.id}`, DOCUMENT_SENDS_PER_DAY, REMINDER_SEND_LIMITED);
  const mailId = await queueReminder(ctx, order, settings, false);
  // Another request counted a reminder on this order in the meantime: one mail is enough.
  if (mailId === null) throw new AppError('REMINDER_JUST_SENT', 'Er is zojuist al een herinnering voor deze bestelling verstuurd.');
  return { mailId, invoiceNumber: order.invoiceNumber!, email: order.email };
}

/** docs/architecture.md §5 POST /orders/sendReminder?id=: queued as queueReminderSend, delivered before the answer. */
export async function sendReminder(
  ctx: RequestCtx,
  orderId: number,
  options: ReminderOptions = {},
): Promise<{ success: true; queued: boolean; message: string }> {
  const { mailId, invoiceNumber, email } = await queueReminderSend(ctx, orderId, options);
  await deliverNowOnly(ctx, [mailId]);
  const sent = (await mailStatus(ctx, mailId)) === 'sent';
  return { success: true, queued: !sent, message: sent ? reminderSentMessage(invoiceNumber, email) : REMINDER_QUEUED };
}

/**
 * The automatic first reminder (docs/decisions/021, setting `reminder_auto_days`, 0 = off): run by the Node timer
 * and the Worker's cron for invoices unpaid `reminder_auto_days` days after their payment term, that
 * have had no reminder yet. Skipped quietly while the club's invoice details are not right.
 */
export async function sendDueReminders(deps: InvoiceDeps, limit = 50): Promise<number> {
  const afterDays = await getIntegerSetting(deps, 'reminder_auto_days');
  if (afterDays <= 0) return 0;
  if ((await identityProblems(deps)).length > 0) return 0;
  const settings = await readInvoiceSettings(deps);
  const due = await deps.db
    .select()
    .from(orders)
    .where(
      and(
        isNotNull(orders.invoiceDate),
        lt(orders.invoiceDate, overdueBefore(deps.clock.now(), settings.paymentTermDays, afterDays)),
        eq(orders.paid, false),
        eq(orders.cancelled, false),
        eq(orders.remindersSent, 0),
      ),
    )
    .limit(limit);
  const system: AuditCtx = { db: deps.db, clock: deps.clock, ip: '', user: null };
  const queued: number[] = [];
  for (const order of due) {
    const mailId = await queueReminder({ ...deps, ...system }, order, settings, true);
    if (mailId !== null) queued.push(mailId);
  }
  await deliverNowOnly(deps, queued);
  return queued.length;
}

/**
 * docs/architecture.md §5 POST /orders/creditInvoice?id=: a credit note for the whole invoice, numbered in the same
 * gap-free series, negating exactly the billed sums and naming the invoice it corrects; mailed with its
 * PDF. The order becomes cancelled and leaves the totals. A correction is this plus a new order.
 */
export async function creditInvoice(
  ctx: RequestCtx,
  orderId: number,
): Promise<{ success: true; credit_note_number: string; queued: boolean; message: string }> {
  requireManagement(ctx);
  const before = await requireOrder(ctx, orderId);
  if (!before.invoiceNumber) throw new AppError('NOTHING_TO_CREDIT', NOTHING_TO_CREDIT);
  if (before.creditNoteNumber)
    throw new AppError('ALREADY_CREDITED', alreadyCredited(before.creditNoteNumber), { credit_note_number: before.creditNoteNumber });
  const settings = await readInvoiceSettings(ctx);
  // The billed sums must be known before the number is drawn (the invoice's files are made if missing).
  await ensureInvoiceFiles(ctx, before, settings);
  const now = ctx.clock.now();
  await skipNumbersDrawnBefore(ctx, campaignYear(now));
  if (!(await assignCreditNoteNumber(ctx.db, orderId, now))) {
    const current = await requireOrder(ctx, orderId);
    throw current.creditNoteNumber
      ? new AppError('ALREADY_CREDITED', alreadyCredited(current.creditNoteNumber), { credit_note_number: current.creditNoteNumber })
      : new AppError('NOTHING_TO_CREDIT', NOTHING_TO_CREDIT);
  }
  const order = await requireOrder(ctx, orderId);
  const creditNoteNumber = order.creditNoteNumber!;
  await markNumberDrawn(ctx.files, creditNoteNumber);
  const key = await ensureCreditNoteFile(ctx, order, settings);
  const pdf: MailAttachmentRef = { filename: documentFilename('credit_note', creditNoteNumber, 'pdf'), contentType: 'application/pdf', fileKey: key };
  const mailId = await enqueueMail(ctx.db, ctx.clock, {
    kind: 'credit-note',
    to: order.email,
    subject: `Creditnota ${creditNoteNumber} – kerstactie ${settings.club.name}`,
    text: [
      `Beste ${order.name},`,
      '',
      `In de bijlage vind je creditnota ${creditNoteNumber}. Daarmee vervalt factuur ${order.invoiceNumber} van ${formatDateLong(new Date(order.invoiceDate!))} voor je bestelling ${order.reference}.`,
      order.paid
        ? 'Je hebt al betaald: we nemen contact met je op over het terugstorten of verrekenen van het bedrag.'
        : 'Je hoeft deze factuur dus niet (meer) te betalen.',
      '',
      'Met vriendelijke groet,',
      settings.club.name,
    ].join('\n'),
    attachments: isBusinessCustomer(order) ? [pdf, await ensureUbl(ctx, order, settings, 'credit_note')] : [pdf],
    relatedRef: `credit:${order.id}`,
  });
  await writeAudit(ctx, {
    action: 'invoice.credited',
    target: orderTarget(order),
    details: { invoice_number: order.invoiceNumber, credit_note_number: creditNoteNumber },
  });
  await deliverNowOnly(ctx, [mailId]);
  const sent = (await mailStatus(ctx, mailId)) === 'sent';
  return {
    success: true,
    credit_note_number: creditNoteNumber,
    queued: !sent,
    message: sent ? creditNoteSentMessage(creditNoteNumber, order.email) : CREDIT_NOTE_QUEUED,
  };
}

/** The credit note's stored PDF, made (again, under a new key) when the row names none or its file is gone. */
async function ensureCreditNoteFile(deps: InvoiceDeps, order: OrderRow, settings: InvoiceSettings): Promise<string> {
  const present = await presentKey(deps, order.creditNoteFileKey);
  if (present) return present;
  const creditNoteNumber = order.creditNoteNumber!;
  const { renderInvoicePdf } = await loadPdfRenderer();
  const pdf = await renderInvoicePdf(issuedDocument(order, settings, 'credit_note'));
  return storeDocument(deps, order.id, 'creditNoteFileKey', order.creditNoteFileKey, newDocumentKey(creditNoteNumber, '.pdf'), pdf, 'application/pdf');
}

export interface StoredDocument {
  number: string;
  filename: string;
  contentType: string;
  body: ReadableStream<Uint8Array>;
  size: number;
}

/**
 * The stored PDF or UBL of an order's invoice or credit note, for the back-office, read only through the key on its row
 * (docs/decisions/049); made again when its file is gone. Null when the order has no such document.
 */
export async function getStoredDocument(ctx: RequestCtx, orderId: number, which: IssuedDocumentKind, format: DocumentFormat): Promise<StoredDocument | null> {
  requireManagement(ctx);
  return storedDocument(ctx, orderId, which, format);
}

/**
 * The same for a caller that has proved its right to the order otherwise: the customer's order page, opened
 * with the order's own link (docs/decisions/066).
 */
export async function storedDocument(ctx: RequestCtx, orderId: number, which: IssuedDocumentKind, format: DocumentFormat): Promise<StoredDocument | null> {
  const order = await requireOrder(ctx, orderId);
  const number = which === 'invoice' ? order.invoiceNumber : order.creditNoteNumber;
  if (!number) return null;
  const named = { number, filename: documentFilename(which, number, format), contentType: format === 'pdf' ? 'application/pdf' : UBL_CONTENT_TYPE };
  const stored = order[DOCUMENT_KEY_COLUMNS[which][format]];
  const existing = stored === null ? null : await ctx.files.get(stored);
  if (existing) return { ...named, ...existing };
  const settings = await readInvoiceSettings(ctx);
  const key =
    format === 'xml'
      ? (await ensureUbl(ctx, order, settings, which)).fileKey
      : which === 'invoice'
        ? (await ensureInvoiceFiles(ctx, order, settings)).pdf.fileKey
        : await ensureCreditNoteFile(ctx, order, settings);
  const file = await ctx.files.get(key);
  if (!file) throw new Error(`The ${which} ${format} of order ${orderId} is missing from storage right after it was stored`);
  return { ...named, ...file };
}
