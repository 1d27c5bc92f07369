import { describe, expect, it } from "vitest";

import { IMPORT_FAILED, markedPaidText, parseImportAnswer, statusCounts } from "./payments-import";

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
