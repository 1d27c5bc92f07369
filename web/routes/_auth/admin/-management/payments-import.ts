import type { UploadResult } from "@/lib/upload";
import type { EntryStatus } from "../../../../../src/features/payments/payment-matching";
import type { EntryView, ImportResult as ServerImportResult } from "../../../../../src/features/payments/payments.service";

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
