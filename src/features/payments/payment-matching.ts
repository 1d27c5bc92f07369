/**
 * Which order a bank credit pays (docs/architecture.md §5 payments): the remittance names an invoice number or an
 * order reference, and the amount must be what is still due on the order: its total incl. VAT, less the
 * part-payments booked on it (docs/decisions/057). Pure: the service looks the orders up and hands them in.
 */

export type EntryStatus = 'matched' | 'amount_mismatch' | 'unmatched' | 'already_imported';

/** A credit on a bank statement as every payments answer shows it. Money in euros. */
export interface BankLineView {
  entry_ref: string;
  booked_at: string;
  amount: number;
  counterparty: string;
  remittance: string;
}

/** An invoice number or order reference named in a remittance, in its stored form. */
export interface Mention {
  kind: 'invoice_number' | 'reference';
  value: string;
}

// Payers type these by hand: any case, a space or nothing for the dash ('f2026 0001', 'F20260001',
// 'kp 2026-0002'). The letters must start a word and the digits must end there, so 'REF20260001' or a
// longer account number never counts.
const PATTERNS = [
  { kind: 'invoice_number', pattern: /(?<![A-Za-z0-9])F[\s-]?(\d{4})[\s-]?(\d{4})(?!\d)/gi, format: (year: string, n: string) => `F${year}-${n}` },
  { kind: 'reference', pattern: /(?<![A-Za-z0-9])KP[\s-]?(\d{4})[\s-]?(\d{4})(?!\d)/gi, format: (year: string, n: string) => `KP-${year}-${n}` },
] as const;

/** What the remittance names, each once, in the order of appearance. */
export function findMentions(remittance: string): Mention[] {
  const found = PATTERNS.flatMap(({ kind, pattern, format }) =>
    [...remittance.matchAll(pattern)].map((m) => ({ at: m.index, kind, value: format(m[1]!, m[2]!) })),
  ).sort((a, b) => a.at - b.at);
  const seen = new Set<string>();
  return found.filter((m) => !seen.has(m.value) && seen.add(m.value)).map(({ kind, value }) => ({ kind, value }));
}

export interface CandidateOrder {
  id: number;
  reference: string;
  invoiceNumber: string | null;
  cancelled: boolean;
  paid: boolean;
  /** Total incl. VAT in cents (orderTotalCents in features/invoices/order-pricing.ts). */
  totalCents: number;
  /** The part-payments booked on it so far, in cents (orders.paid_cents). */
  paidCents: number;
  /** An earlier bank booking paid it in full (a settled bank entry); part-payments alone do not count. */
  settledByBank: boolean;
}

/** What a transfer must bring to pay the order: the total, less what part-payments brought already. */
export function dueCents(order: Pick<CandidateOrder, 'totalCents' | 'paidCents'>): number {
  return Math.max(order.totalCents - order.paidCents, 0);
}

export interface EntryToMatch {
  entryKey: string;
  amountCents: number;
  remittance: string;
}

export interface EntryMatch {
  status: EntryStatus;
  /** The order the remittance names (or, for already_imported, the order the booking paid). */
  orderId: number | null;
}

export interface MatchLookup {
  ordersByInvoiceNumber: ReadonlyMap<string, CandidateOrder>;
  ordersByReference: ReadonlyMap<string, CandidateOrder>;
  /** entry_key → the order an applied bank entry with that key paid (null when that order is gone). */
  appliedKeys: ReadonlyMap<string, number | null>;
}

/** The known orders a remittance names, each once, in the order the text names them. */
function namedOrders(remittance: string, lookup: MatchLookup): CandidateOrder[] {
  const found: CandidateOrder[] = [];
  for (const mention of findMentions(remittance)) {
    const order = (mention.kind === 'invoice_number' ? lookup.ordersByInvoiceNumber : lookup.ordersByReference).get(mention.value);
    if (order && !found.some((o) => o.id === order.id)) found.push(order);
  }
  return found;
}

/**
 * The status of each credit of one statement, in its order:
 *
 * - `already_imported`: a bank entry with the same key paid an order before (confirmed earlier);
 * - `unmatched`: no known order is named, or the one named is credited (cancelled), or it was already
 *   paid in full by another bank booking, or an earlier credit of this same statement matched it: a second
 *   payment is for the treasurer to sort out (refund), never a second "paid". The order is still given,
 *   so the preview can say which one the payer meant;
 * - `matched`: the amount is what is due on the order (its total incl. VAT, less part-payments). An order
 *   marked paid by hand (no bank booking yet) still matches: the hand mark most likely recorded this very
 *   transfer, and confirming then links the booking to the order without touching its paid date;
 * - `amount_mismatch`: an order is named but the amount differs.
 *
 * When several orders are named, the first whose due amount equals the amount wins (one transfer per
 * invoice is the rule; a transfer for two invoices is an amount_mismatch on the first, for the treasurer).
 */
export function matchEntries(entries: readonly EntryToMatch[], lookup: MatchLookup): EntryMatch[] {
  const claimed = new Set<number>();
  return entries.map((entry) => {
    if (lookup.appliedKeys.has(entry.entryKey)) return { status: 'already_imported', orderId: lookup.appliedKeys.get(entry.entryKey) ?? null };
    const named = namedOrders(entry.remittance, lookup);
    if (named.length === 0) return { status: 'unmatched', orderId: null };
    const live = named.filter((o) => !o.cancelled);
    if (live.length === 0) return { status: 'unmatched', orderId: named[0]!.id };
    const order = live.find((o) => dueCents(o) === entry.amountCents) ?? live[0]!;
    if (order.settledByBank || claimed.has(order.id)) return { status: 'unmatched', orderId: order.id };
    if (dueCents(order) !== entry.amountCents) return { status: 'amount_mismatch', orderId: order.id };
    claimed.add(order.id);
    return { status: 'matched', orderId: order.id };
  });
}
