import { describe, expect, it } from "vitest";

import { refundSchema } from "#src/features/online-payments/online-payments.schemas";
import {
  canRefundDouble,
  leftToRefund,
  mayOfferRefund,
  type OnlinePayment,
  onlineStatusText,
  parseRefundAmount,
  paymentMethodText,
  refundDoneText,
} from "./online-payments-rules";

/** Intl puts a no-break space after '€'; the tests compare with plain spaces. */
const plain = (text: string) => text.replace(/\s/g, " ");

const SERVER_TEXT = (() => {
  const result = refundSchema.safeParse({ amount: 0 });
  return result.success ? "" : result.error.issues[0]!.message;
})();

const payment: OnlinePayment = {
  id: 1,
  provider_id: "tr_abc123",
  order_id: 7,
  reference: "KP-2026-0007",
  status: "paid",
  amount: 90.75,
  refunded_amount: 0,
  charged_back_amount: 0,
  double_payment: true,
  created_at: "2026-12-03T10:00:00.000Z",
  paid_at: "2026-12-03T10:01:00.000Z",
};

describe("the online payments' texts", () => {
  it("names each of Mollie's statuses in Dutch, and an unknown one as Mollie writes it", () => {
    expect(["open", "pending", "authorized", "paid", "canceled", "expired", "failed"].map(onlineStatusText)).toEqual([
      "Open",
      "In behandeling",
      "Geautoriseerd",
      "Betaald",
      "Geannuleerd",
      "Verlopen",
      "Mislukt",
    ]);
    expect(onlineStatusText("refunded")).toBe("refunded");
  });

  it("says how a paid order was paid, and nothing for an unpaid one or one paid before the method was kept", () => {
    expect(paymentMethodText({ paid: true, payment_method: "online" })).toBe("Betaald via: iDEAL (online)");
    expect(paymentMethodText({ paid: true, payment_method: "bank" })).toBe("Betaald via: Bank");
    expect(paymentMethodText({ paid: true, payment_method: "manual" })).toBe("Betaald via: Handmatig");
    expect(paymentMethodText({ paid: true, payment_method: null })).toBeNull();
    expect(paymentMethodText({ paid: false, payment_method: "online" })).toBeNull();
  });

  it("says in the snackbar what was refunded: the amount asked, else the growth of the order's refunded total", () => {
    expect(plain(refundDoneText(10.25, 0, 10.25))).toBe("€ 10,25 terugbetaald via Mollie.");
    expect(plain(refundDoneText(undefined, 5, 15.25))).toBe("€ 10,25 terugbetaald via Mollie.");
    // A total that did not grow as seen from here (a refund in Mollie's dashboard meanwhile): the total.
    expect(plain(refundDoneText(undefined, 20, 20))).toBe("€ 20,00 terugbetaald via Mollie.");
  });
});

describe("what can be refunded", () => {
  it("leaves of a paid payment what refunds and chargebacks have not taken back, to the cent", () => {
    expect(leftToRefund(payment)).toBe(90.75);
    expect(leftToRefund({ ...payment, refunded_amount: 0.1, charged_back_amount: 0.2 })).toBe(90.45);
    expect(leftToRefund({ ...payment, refunded_amount: 90.75 })).toBe(0);
    expect(leftToRefund({ ...payment, charged_back_amount: 100 })).toBe(0);
    expect(leftToRefund({ ...payment, status: "open" })).toBe(0);
  });

  it("offers a double payment's refund only while its order exists and something is left", () => {
    expect(canRefundDouble(payment)).toBe(true);
    expect(canRefundDouble({ ...payment, double_payment: false })).toBe(false);
    expect(canRefundDouble({ ...payment, order_id: null })).toBe(false);
    expect(canRefundDouble({ ...payment, refunded_amount: 90.75 })).toBe(false);
  });

  it("offers the order's refund when it was paid online or refunded before, until the refunds reach its total", () => {
    expect(mayOfferRefund({ payment_method: "online" }, 0, null)).toBe(true);
    expect(mayOfferRefund({ payment_method: "online" }, 10.25, 90.75)).toBe(true);
    expect(mayOfferRefund({ payment_method: "online" }, 90.75, 90.75)).toBe(false);
    expect(mayOfferRefund({ payment_method: null }, 10, 90.75)).toBe(true);
    expect(mayOfferRefund({ payment_method: "bank" }, 0, 90.75)).toBe(false);
    expect(mayOfferRefund({ payment_method: null }, 0, null)).toBe(false);
  });
});

describe("the refund dialog's amount", () => {
  it("reads empty as everything that is left", () => {
    expect(parseRefundAmount("")).toEqual({ amount: undefined, error: null });
    expect(parseRefundAmount("  ")).toEqual({ amount: undefined, error: null });
  });

  it("reads euros with a decimal comma or dot, an optional euro sign, and up to two decimals", () => {
    expect(parseRefundAmount("10,25")).toEqual({ amount: 10.25, error: null });
    expect(parseRefundAmount("10.25")).toEqual({ amount: 10.25, error: null });
    expect(parseRefundAmount("€ 7")).toEqual({ amount: 7, error: null });
    expect(parseRefundAmount("€7,5")).toEqual({ amount: 7.5, error: null });
    expect(parseRefundAmount(" 0,01 ")).toEqual({ amount: 0.01, error: null });
    // Floating point does not leak in: 0.29 stays 0.29, which the server's two-decimal rule accepts.
    expect(parseRefundAmount("0,29")).toEqual({ amount: 0.29, error: null });
  });

  it("refuses what is no amount, three decimals, thousands separators, zero and minus with the server's own text", () => {
    expect(SERVER_TEXT).toMatch(/twee decimalen/);
    for (const text of ["tien", "10,255", "1.234,56", "0", "0,00", "-5", "10,", ",5", "1e3", "10 25"]) {
      expect(parseRefundAmount(text), text).toEqual({ amount: null, error: SERVER_TEXT });
    }
  });
});
