import type { UploadResult } from "@/lib/upload";
import type { FollowUpView, ResolveResult } from "#src/features/payments/follow-ups.service";
import type { OrderBalance } from "#src/features/payments/order-balance";
import type { EntryStatus } from "#src/features/payments/payment-matching";
import type { FollowUpAction } from "#src/features/payments/payments.schemas";
import type {
  EntryOutcome,
  EntryView,
  ImportSummary,
  ImportResult as ServerImportResult,
  StoredEntryView,
} from "#src/features/payments/payments.service";
import { formatBookingDate, formatEuroNl } from "./charts-format";

// The answer of POST /api/payments/import (docs/architecture.md §5) and the Dutch words the Betalingen tab shows for
// it. Kept apart from the tab's markup so the rules (what a status is called, how the answer is read,
// the count's grammar) can be tested without a browser.

export type PaymentStatus = EntryStatus;
/** Every status, in the order the counts are shown (the type check keeps it in step with the server's). */
export const PAYMENT_STATUSES = ["matched", "amount_mismatch", "unmatched", "already_imported"] as const satisfies readonly EntryStatus[];

export const PAYMENT_STATUS_LABELS: Record<PaymentStatus, string> = {
  matched: "Gevonden",
  amount_mismatch: "Bedrag wijkt af",
  unmatched: "Niet gevonden",
  already_imported: "Al verwerkt",
};

export type PaymentEntry = EntryView;
export type ImportResult = Omit<ServerImportResult, "success">;

/** When the server gave no text of its own (no answer, or not the contract's JSON). */
export const IMPORT_FAILED = "Het bankafschrift kon niet worden ingelezen.";

/** The import's result, or the server's own (Dutch) refusal, or IMPORT_FAILED. */
export function parseImportAnswer({ status, body }: UploadResult): ImportResult | { error: string } {
  const answer = (body ?? {}) as { success?: unknown; error?: unknown; import_id?: unknown; entries?: unknown; skipped?: unknown };
  if (status >= 200 && status < 300 && answer.success === true && Array.isArray(answer.entries)) {
    const importId = answer.import_id;
    if (typeof importId === "number") {
      const skipped = Array.isArray(answer.skipped) ? (answer.skipped as ImportResult["skipped"]) : [];
      return { import_id: importId, entries: (answer.entries as PaymentEntry[]).filter((e) => isStatus(e?.status)), skipped };
    }
  }
  if (typeof answer.error === "string" && answer.error.trim()) return { error: answer.error };
  return { error: IMPORT_FAILED };
}

function isStatus(value: unknown): value is PaymentStatus {
  return (PAYMENT_STATUSES as readonly unknown[]).includes(value);
}

export function statusCounts(entries: readonly PaymentEntry[]): Record<PaymentStatus, number> {
  const counts: Record<PaymentStatus, number> = { matched: 0, amount_mismatch: 0, unmatched: 0, already_imported: 0 };
  for (const entry of entries) counts[entry.status] += 1;
  return counts;
}

/** '3 bestellingen als betaald gemarkeerd.' ('1 bestelling …' for one). */
export function markedPaidText(count: number): string {
  return `${count} ${count === 1 ? "bestelling" : "bestellingen"} als betaald gemarkeerd.`;
}

// docs/decisions/057: what 'Verwerken' leaves for the treasurer, the import history, and paid-so-far.

export type { FollowUpAction, FollowUpView, ImportSummary, OrderBalance, StoredEntryView };

/**
 * What 'Verwerken' would do something with: the matched credits, and those it would leave as a new follow-up
 * (a credit already open or dismissed from an earlier import stays where it is).
 */
export function processableCount(entries: readonly PaymentEntry[]): number {
  return entries.filter((e) => e.status === "matched" || ((e.status === "amount_mismatch" || e.status === "unmatched") && !e.follow_up))
    .length;
}

/** '1 betaling staat klaar om af te handelen.' ('… betalingen staan …' for more); '' for none. */
export function followUpsText(count: number): string {
  if (count === 0) return "";
  return count === 1 ? "1 betaling staat klaar om af te handelen." : `${count} betalingen staan klaar om af te handelen.`;
}

/** The snackbar after 'Verwerken': what was marked paid, and what is left to resolve. */
export function processedText(markedPaid: number, followUps: number): string {
  return [markedPaidText(markedPaid), followUpsText(followUps)].filter(Boolean).join(" ");
}

/** Under a preview line whose booking an earlier import already left for the treasurer. */
export const EARLIER_FOLLOW_UP_LABELS: Record<"open" | "dismissed", string> = {
  open: "Staat al bij Af te handelen",
  dismissed: "Eerder genegeerd",
};

/** Why a credit is left: the same words as the preview, and for a matched one whose order could no longer take it. */
export const FOLLOW_UP_STATUS_LABELS: Record<EntryStatus, string> = {
  ...PAYMENT_STATUS_LABELS,
  matched: "Niet geboekt",
};

export const OUTCOME_LABELS: Record<EntryOutcome, string> = {
  paid: "Geboekt",
  open: "Af te handelen",
  part_payment: "Deelbetaling geboekt",
  full_payment: "Als volledige betaling geboekt",
  dismissed: "Genegeerd",
  already_imported: "Al eerder verwerkt",
  elsewhere: "In een andere import verwerkt",
  not_processed: "Niet verwerkt",
};

/** What became of a line of an import, in one phrase ('Genegeerd: gift', 'Deelbetaling geboekt, bestelling betaald'). */
export function outcomeText(entry: Pick<StoredEntryView, "outcome" | "reason" | "settled">): string {
  const label = OUTCOME_LABELS[entry.outcome];
  if (entry.outcome === "dismissed" && entry.reason) return `${label}: ${entry.reason}`;
  if (entry.outcome === "part_payment" && entry.settled) return `${label}, bestelling betaald`;
  return label;
}

/** 'totaal € 90,75 · betaald € 50,00 · nog open € 40,75' */
export function balanceText(order: Pick<OrderBalance, "amount_incl" | "paid_amount" | "open_amount" | "paid" | "cancelled">): string {
  const state = order.cancelled ? " · gecrediteerd" : order.paid ? " · betaald" : "";
  return `totaal ${formatEuroNl(order.amount_incl)} · betaald ${formatEuroNl(order.paid_amount)} · nog open ${formatEuroNl(order.open_amount)}${state}`;
}

/** What the order would show after booking `amount` on it this way, before it is sent (the server decides). */
export function balanceAfter(
  order: Pick<OrderBalance, "amount_incl" | "paid_amount" | "open_amount" | "paid">,
  amount: number,
  action: Exclude<FollowUpAction, "dismiss">,
): { paid_amount: number; open_amount: number; paid: boolean } {
  const cents = (euros: number) => Math.round(euros * 100);
  if (action === "full_payment") return { paid_amount: Math.max(order.amount_incl, order.paid_amount), open_amount: 0, paid: true };
  const paid = cents(order.paid_amount) + cents(amount);
  const open = Math.max(cents(order.amount_incl) - paid, 0);
  return { paid_amount: paid / 100, open_amount: open / 100, paid: open === 0 };
}

/** The snackbar after a follow-up is resolved. */
export function resolvedText(result: Pick<ResolveResult, "resolution" | "order">, amount: number): string {
  if (result.resolution === "dismissed" || !result.order) return "Betaling genegeerd.";
  const { reference } = result.order;
  if (result.order.paid) {
    return result.resolution === "part_payment"
      ? `Deelbetaling van ${formatEuroNl(amount)} geboekt op ${reference}: de bestelling is betaald.`
      : `Betaling geboekt: ${reference} is betaald.`;
  }
  return `Deelbetaling van ${formatEuroNl(amount)} geboekt op ${reference}: nog open ${formatEuroNl(result.order.open_amount)}.`;
}

/** '1 dec 2026 – 3 dec 2026', one day once, or null when the file named no period. */
export function periodText(from: string | null, to: string | null): string | null {
  if (!from && !to) return null;
  if (from && to) return from === to ? formatBookingDate(from) : `${formatBookingDate(from)} – ${formatBookingDate(to)}`;
  return formatBookingDate((from ?? to)!);
}

/** The counts of an import as the history lists them, leaving out the ones that are zero (the booked count always). */
export function importCounts(summary: ImportSummary): { key: string; label: string; count: number }[] {
  const all = [
    { key: "applied", label: "Geboekt", count: summary.applied },
    { key: "amount_mismatch", label: PAYMENT_STATUS_LABELS.amount_mismatch, count: summary.amount_mismatch },
    { key: "unmatched", label: PAYMENT_STATUS_LABELS.unmatched, count: summary.unmatched },
    { key: "already_imported", label: PAYMENT_STATUS_LABELS.already_imported, count: summary.already_imported },
    { key: "skipped", label: "Niet meegenomen", count: summary.skipped },
    { key: "open_follow_ups", label: "Nog af te handelen", count: summary.open_follow_ups },
  ];
  return all.filter((c) => c.key === "applied" || c.count > 0);
}
