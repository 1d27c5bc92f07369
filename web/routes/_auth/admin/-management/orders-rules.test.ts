import { describe, expect, it } from "vitest";

import { BACK_OFFICE_AMOUNT_MESSAGE } from "#src/features/orders/orders.service";
import { outcomeSummary } from "./bulk-actions";
import { AMOUNT_RANGE_MESSAGE, parseAmount } from "./order-dialog";
import { canCredit, canRemind, formatCount, ordersCountText, remindersText } from "./shared";

// docs/decisions/056, 021 and 022: the order dialog's amount rule, the reminder line and the bulk summary, in nl-NL.

describe("the back-office amount", () => {
  it("says what the server says when it refuses", () => {
    expect(AMOUNT_RANGE_MESSAGE).toBe(BACK_OFFICE_AMOUNT_MESSAGE);
  });

  it("accepts 1 to 10", () => {
    expect(parseAmount("1")).toEqual({ amount: 1, error: null });
    expect(parseAmount(" 10 ")).toEqual({ amount: 10, error: null });
  });

  it("refuses a number outside 1–10 instead of storing 1, and what is no whole number with its own text", () => {
    for (const value of ["0", "11", "15", "-3"]) {
      expect(parseAmount(value), value).toEqual({ amount: null, error: "Het aantal is 1 tot en met 10." });
    }
    for (const value of ["2.5", "2,5", "abc", "1e1"]) {
      expect(parseAmount(value), value).toEqual({
        amount: null,
        error: "Aantal kerstpakketten moet een heel getal zijn, zoals 1, 2 of 3.",
      });
    }
  });

  it("lets an order keep an amount above 10 it already has, but refuses changing it to another one", () => {
    expect(parseAmount("25", 25)).toEqual({ amount: 25, error: null });
    expect(parseAmount("4", 25)).toEqual({ amount: 4, error: null });
    expect(parseAmount("24", 25)).toEqual({ amount: null, error: "Het aantal is 1 tot en met 10." });
    expect(parseAmount("2.5", 25)).toEqual({ amount: null, error: "Aantal kerstpakketten moet een heel getal zijn, zoals 1, 2 of 3." });
  });

  it("falls back to 1 only for an empty field (docs/product.md §5)", () => {
    expect(parseAmount("")).toEqual({ amount: 1, error: null });
    expect(parseAmount("  ", 25)).toEqual({ amount: 1, error: null });
  });
});

describe("an order's invoice line", () => {
  const invoiced = { invoice_number: "F2026-0001", credit_note_number: null, paid: false, cancelled: false };

  it("names the reminders and the last one's nl-NL date", () => {
    expect(remindersText({ reminders_sent: 0, last_reminder_at: null })).toBeNull();
    expect(remindersText({ reminders_sent: 1, last_reminder_at: "2026-11-24T10:00:00Z" })).toBe("1 herinnering, laatste 24-11-2026");
    expect(remindersText({ reminders_sent: 2, last_reminder_at: "2026-11-24T10:00:00Z" })).toBe("2 herinneringen, laatste 24-11-2026");
  });

  it("offers a credit note for an invoiced order not yet credited", () => {
    expect(canCredit(invoiced)).toBe(true);
    expect(canCredit({ ...invoiced, credit_note_number: "F2026-0002" })).toBe(false);
    expect(canCredit({ ...invoiced, invoice_number: null })).toBe(false);
  });

  it("offers a reminder for an invoiced, unpaid, not credited order", () => {
    expect(canRemind(invoiced)).toBe(true);
    expect(canRemind({ ...invoiced, paid: true })).toBe(false);
    expect(canRemind({ ...invoiced, cancelled: true })).toBe(false);
    expect(canRemind({ ...invoiced, invoice_number: null })).toBe(false);
  });
});

describe("counts in nl-NL", () => {
  it("writes thousands with a dot", () => {
    expect(formatCount(1234)).toBe("1.234");
    expect(ordersCountText(1)).toBe("1 bestelling");
    expect(ordersCountText(5001)).toBe("5.001 bestellingen");
  });

  it("sums up a bulk run", () => {
    expect(outcomeSummary({ succeeded: 2, failures: [{ reference: "KP-2026-0002", error: "x" }] })).toBe("2 gelukt, 1 mislukt");
  });
});
