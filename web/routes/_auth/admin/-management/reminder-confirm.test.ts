import { describe, expect, it } from "vitest";
import { reminderDueWarning } from "./reminder-confirm";

// docs/decisions/059: the single reminder's confirmation warns before the due date, by the server's rule.
describe("reminderDueWarning", () => {
  const order = { invoice_number: "F2026-0007", invoice_date: "2026-11-22T10:00:00.000Z", email: "anna@example.nl" };

  it("names the due date while the payment term runs, up to its last minute", () => {
    const warning = "De betaaltermijn van factuur F2026-0007 loopt nog tot 6 december 2026.";
    expect(reminderDueWarning(order, 14, new Date("2026-11-22T10:00:00.000Z"))).toBe(warning);
    expect(reminderDueWarning(order, 14, new Date("2026-12-06T09:59:00.000Z"))).toBe(warning);
  });

  it("says nothing once the term has run out, or when the order has no invoice or the term is not known yet", () => {
    expect(reminderDueWarning(order, 14, new Date("2026-12-06T10:01:00.000Z"))).toBeNull();
    expect(reminderDueWarning({ ...order, invoice_number: null, invoice_date: null }, 14, new Date("2026-11-22T10:00:00.000Z"))).toBeNull();
    expect(reminderDueWarning(order, undefined, new Date("2026-11-22T10:00:00.000Z"))).toBeNull();
  });
});
