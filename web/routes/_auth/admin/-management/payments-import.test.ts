import { describe, expect, it } from "vitest";

import {
  balanceAfter,
  balanceText,
  IMPORT_FAILED,
  importCounts,
  markedPaidText,
  outcomeText,
  parseImportAnswer,
  periodText,
  processableCount,
  processedText,
  resolvedText,
  statusCounts,
} from "./payments-import";

const entry = (status: "matched" | "amount_mismatch" | "unmatched" | "already_imported") => ({
  entry_ref: `ref-${status}`,
  booked_at: "2026-12-03",
  amount: 90.75,
  counterparty: "P. Pietersen",
  remittance: "F2026-0001",
  status,
});

describe("parseImportAnswer", () => {
  it("reads a successful import with its entries and skipped credits", () => {
    const answer = parseImportAnswer({
      status: 200,
      body: {
        success: true,
        import_id: 7,
        entries: [entry("matched")],
        skipped: [{ entry_ref: "x", booked_at: "2026-12-03", reason: "Andere munt" }],
      },
    });
    expect(answer).toEqual({
      import_id: 7,
      entries: [entry("matched")],
      skipped: [{ entry_ref: "x", booked_at: "2026-12-03", reason: "Andere munt" }],
    });
  });

  it("gives the server's own Dutch refusal", () => {
    expect(parseImportAnswer({ status: 400, body: { success: false, error: "Het bestand is leeg." } })).toEqual({
      error: "Het bestand is leeg.",
    });
    expect(parseImportAnswer({ status: 413, body: { success: false, error: "Het bestand is te groot." } })).toEqual({
      error: "Het bestand is te groot.",
    });
  });

  it("falls back to its own text when the answer is not the contract's JSON", () => {
    expect(parseImportAnswer({ status: 502, body: null })).toEqual({ error: IMPORT_FAILED });
    expect(parseImportAnswer({ status: 200, body: { success: true } })).toEqual({ error: IMPORT_FAILED });
  });

  it("leaves out entries with a status it does not know", () => {
    const answer = parseImportAnswer({
      status: 200,
      body: { success: true, import_id: 1, entries: [entry("unmatched"), { ...entry("matched"), status: "other" }] },
    });
    expect("entries" in answer && answer.entries.map((e) => e.status)).toEqual(["unmatched"]);
  });
});

describe("statusCounts", () => {
  it("counts every status, zero included", () => {
    expect(statusCounts([entry("matched"), entry("matched"), entry("unmatched")])).toEqual({
      matched: 2,
      amount_mismatch: 0,
      unmatched: 1,
      already_imported: 0,
    });
  });
});

describe("markedPaidText", () => {
  it("says how many orders were marked paid, in Dutch singular and plural", () => {
    expect(markedPaidText(1)).toBe("1 bestelling als betaald gemarkeerd.");
    expect(markedPaidText(3)).toBe("3 bestellingen als betaald gemarkeerd.");
    expect(markedPaidText(0)).toBe("0 bestellingen als betaald gemarkeerd.");
  });
});

/** Intl puts a no-break space after '€'; the tests compare with plain spaces. */
const plain = (text: string) => text.replace(/\s/g, " ");

describe("processableCount", () => {
  it("counts the matched credits and the differing or unmatched ones not yet left for the treasurer", () => {
    expect(
      processableCount([
        entry("matched"),
        entry("amount_mismatch"),
        { ...entry("unmatched"), follow_up: "open" },
        { ...entry("unmatched"), follow_up: "dismissed" },
        entry("unmatched"),
        entry("already_imported"),
      ]),
    ).toBe(3);
    expect(processableCount([entry("already_imported"), { ...entry("amount_mismatch"), follow_up: "open" }])).toBe(0);
  });
});

describe("processedText", () => {
  it("says what was marked paid and how many payments are left to resolve", () => {
    expect(processedText(1, 2)).toBe("1 bestelling als betaald gemarkeerd. 2 betalingen staan klaar om af te handelen.");
    expect(processedText(0, 1)).toBe("0 bestellingen als betaald gemarkeerd. 1 betaling staat klaar om af te handelen.");
    expect(processedText(3, 0)).toBe("3 bestellingen als betaald gemarkeerd.");
  });
});

describe("outcomeText", () => {
  it("says what became of a line, with the reason of a dismissal and a part-payment that paid the order", () => {
    expect(outcomeText({ outcome: "dismissed", reason: "Gift", settled: false })).toBe("Genegeerd: Gift");
    expect(outcomeText({ outcome: "part_payment", reason: null, settled: true })).toBe("Deelbetaling geboekt, bestelling betaald");
    expect(outcomeText({ outcome: "part_payment", reason: null, settled: false })).toBe("Deelbetaling geboekt");
    expect(outcomeText({ outcome: "elsewhere", reason: null, settled: false })).toBe("In een andere import verwerkt");
  });
});

const order = {
  order_id: 3,
  reference: "KP-2026-0003",
  invoice_number: "F2026-0003",
  name: "Marieke de Vries",
  amount_incl: 90.75,
  paid_amount: 50,
  open_amount: 40.75,
  paid: false,
  paid_at: null,
  cancelled: false,
};

describe("balances", () => {
  it("reads an order's total, paid so far and still open in Dutch", () => {
    expect(plain(balanceText(order))).toBe("totaal € 90,75 · betaald € 50,00 · nog open € 40,75");
    expect(plain(balanceText({ ...order, paid: true, paid_amount: 90.75, open_amount: 0 }))).toBe(
      "totaal € 90,75 · betaald € 90,75 · nog open € 0,00 · betaald",
    );
  });

  it("foresees a part-payment in cents, and a full payment leaving nothing open", () => {
    expect(balanceAfter(order, 20.1, "part_payment")).toEqual({ paid_amount: 70.1, open_amount: 20.65, paid: false });
    expect(balanceAfter(order, 40.75, "part_payment")).toEqual({ paid_amount: 90.75, open_amount: 0, paid: true });
    expect(balanceAfter(order, 10, "full_payment")).toEqual({ paid_amount: 90.75, open_amount: 0, paid: true });
  });

  it("words the snackbar after a resolution", () => {
    expect(plain(resolvedText({ resolution: "part_payment", order }, 50))).toBe(
      "Deelbetaling van € 50,00 geboekt op KP-2026-0003: nog open € 40,75.",
    );
    expect(plain(resolvedText({ resolution: "part_payment", order: { ...order, paid: true } }, 40.75))).toBe(
      "Deelbetaling van € 40,75 geboekt op KP-2026-0003: de bestelling is betaald.",
    );
    expect(resolvedText({ resolution: "full_payment", order: { ...order, paid: true } }, 100)).toBe(
      "Betaling geboekt: KP-2026-0003 is betaald.",
    );
    expect(resolvedText({ resolution: "dismissed" }, 25)).toBe("Betaling genegeerd.");
  });
});

describe("the import history", () => {
  it("names the statement's period, one day once, nothing when the file has none", () => {
    expect(periodText("2026-12-01", "2026-12-03")).toBe("1 dec 2026 – 3 dec 2026");
    expect(periodText("2026-12-03", "2026-12-03")).toBe("3 dec 2026");
    expect(periodText(null, null)).toBeNull();
  });

  it("lists the counts that are not zero, the booked count always", () => {
    const summary = {
      applied: 0,
      amount_mismatch: 1,
      unmatched: 0,
      already_imported: 2,
      skipped: 0,
      open_follow_ups: 1,
    } as Parameters<typeof importCounts>[0];
    expect(importCounts(summary).map((c) => `${c.label}: ${c.count}`)).toEqual([
      "Geboekt: 0",
      "Bedrag wijkt af: 1",
      "Al verwerkt: 2",
      "Nog af te handelen: 1",
    ]);
  });
});
