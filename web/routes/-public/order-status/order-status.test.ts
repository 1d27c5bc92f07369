import { describe, expect, it } from "vitest";

import {
  checkoutUrl,
  formatEuros,
  invoicePdfUrl,
  type OrderStatus,
  orderState,
  orderStatusUrl,
  orderTokenFromPath,
  PAY_FAILED,
  PAY_TOO_OFTEN,
  paidOnText,
  parseOrderStatus,
  partialRefund,
  payFailureText,
  payUrl,
  refusalError,
} from "./order-status";

const OPEN: OrderStatus = {
  reference: "KP-2026-0001",
  name: "Anna de Vries",
  amount: 3,
  amount_incl: 272.25,
  paid: false,
  paid_at: null,
  cancelled: false,
  invoice_number: null,
  refunded_amount: 0,
  can_pay: true,
};

describe("orderTokenFromPath", () => {
  it("reads the token from /bestelling/<token>, with or without a trailing slash", () => {
    expect(orderTokenFromPath("/bestelling/abc_DEF-123")).toBe("abc_DEF-123");
    expect(orderTokenFromPath("/bestelling/abc/")).toBe("abc");
    expect(orderTokenFromPath("/bestelling/a%20b")).toBe("a b");
  });

  it("finds no token on /bestelling itself, deeper paths, other pages or a broken escape", () => {
    expect(orderTokenFromPath("/bestelling")).toBeNull();
    expect(orderTokenFromPath("/bestelling/")).toBeNull();
    expect(orderTokenFromPath("/bestelling/abc/def")).toBeNull();
    expect(orderTokenFromPath("/bestellen/abc")).toBeNull();
    expect(orderTokenFromPath("/bestelling/%E0%A4%A")).toBeNull();
  });
});

describe("the API addresses", () => {
  it("escape the token, so it stays one path segment", () => {
    expect(orderStatusUrl("abc")).toBe("/api/order-status/abc");
    expect(invoicePdfUrl("abc")).toBe("/api/order-status/abc/invoice.pdf");
    expect(payUrl("a/b?c")).toBe("/api/order-status/a%2Fb%3Fc/pay");
  });
});

describe("parseOrderStatus", () => {
  it("keeps the contract's fields and drops anything else", () => {
    expect(parseOrderStatus({ ...OPEN, extra: 1 })).toEqual(OPEN);
  });

  it("refuses an answer of another shape", () => {
    expect(parseOrderStatus(null)).toBeNull();
    expect(parseOrderStatus("KP-2026-0001")).toBeNull();
    expect(parseOrderStatus({ ...OPEN, amount_incl: "272.25" })).toBeNull();
    expect(parseOrderStatus({ ...OPEN, paid_at: undefined })).toBeNull();
    expect(parseOrderStatus({ ...OPEN, can_pay: undefined })).toBeNull();
  });
});

describe("orderState", () => {
  it("is Open for an unpaid order and Betaald for a paid one", () => {
    expect(orderState(OPEN)).toBe("open");
    expect(orderState({ ...OPEN, paid: true, paid_at: "2026-11-22T10:00:00Z" })).toBe("paid");
  });

  it("is Terugbetaald once the whole total has been refunded, and stays Betaald for a partial refund", () => {
    const paid = { ...OPEN, paid: true };
    expect(orderState({ ...paid, refunded_amount: 272.25 })).toBe("refunded");
    expect(orderState({ ...paid, refunded_amount: 300 })).toBe("refunded");
    expect(orderState({ ...paid, refunded_amount: 10 })).toBe("paid");
  });

  it("is Geannuleerd for a cancelled order, refunded or not", () => {
    expect(orderState({ ...OPEN, cancelled: true })).toBe("cancelled");
    expect(orderState({ ...OPEN, paid: true, cancelled: true, refunded_amount: 272.25 })).toBe("cancelled");
  });

  it("does not call an order of nothing refunded", () => {
    expect(orderState({ ...OPEN, amount: 0, amount_incl: 0 })).toBe("open");
  });
});

describe("partialRefund", () => {
  it("is the refunded euros only while less than the total was refunded", () => {
    expect(partialRefund({ ...OPEN, paid: true, refunded_amount: 10 })).toBe(10);
    expect(partialRefund({ ...OPEN, paid: true, refunded_amount: 0 })).toBeNull();
    expect(partialRefund({ ...OPEN, paid: true, refunded_amount: 272.25 })).toBeNull();
  });
});

describe("formatting", () => {
  it("writes euros as the invoices do", () => {
    expect(formatEuros(272.25)).toBe("€ 272,25");
    expect(formatEuros(10)).toBe("€ 10,00");
    expect(formatEuros(1234.5)).toBe("€ 1.234,50");
    // 0.1 + 0.2 and friends: the cents are rounded, not cut off.
    expect(formatEuros(90.75 + 0.1 + 0.2 - 0.3)).toBe("€ 90,75");
  });

  it("writes the payment date in Dutch, in Dutch time", () => {
    expect(paidOnText("2026-11-22T10:00:00Z")).toBe("op 22 november 2026");
    expect(paidOnText("2026-11-22T23:30:00Z")).toBe("op 23 november 2026");
    expect(paidOnText(null)).toBeNull();
    expect(paidOnText("gisteren")).toBeNull();
  });
});

describe("the pay answer", () => {
  it("takes the checkout address only when it is a web address", () => {
    expect(checkoutUrl({ checkout_url: "https://www.mollie.com/checkout/select-method/abc" })).toBe(
      "https://www.mollie.com/checkout/select-method/abc",
    );
    expect(checkoutUrl({ checkout_url: "javascript:alert(1)" })).toBeNull();
    expect(checkoutUrl({ checkout_url: "/relative" })).toBeNull();
    expect(checkoutUrl({})).toBeNull();
  });

  it("reads the server's text from a refusal", () => {
    expect(refusalError({ success: false, error: "Deze bestelling is al betaald.", code: "ORDER_PAID" })).toBe(
      "Deze bestelling is al betaald.",
    );
    expect(refusalError({ success: false, error: "  " })).toBeNull();
    expect(refusalError("Too many requests")).toBeNull();
  });
});

describe("payFailureText", () => {
  const refusal = (error: string) => ({ success: false, error, code: "SOME_CODE" });

  it("shows the server's text when it refused for the order or the provider failed", () => {
    expect(payFailureText(409, refusal("Deze bestelling is al betaald."))).toBe("Deze bestelling is al betaald.");
    expect(payFailureText(502, refusal("De betaalprovider reageert niet."))).toBe("De betaalprovider reageert niet.");
    expect(payFailureText(409, null)).toBe(PAY_FAILED);
  });

  it("speaks for itself on a rate limit and on anything else", () => {
    expect(payFailureText(429, refusal("Too many requests. Please wait a moment and try again."))).toBe(PAY_TOO_OFTEN);
    expect(payFailureText(500, refusal("Server error"))).toBe(PAY_FAILED);
    expect(payFailureText(404, refusal("Not found"))).toBe(PAY_FAILED);
  });
});
