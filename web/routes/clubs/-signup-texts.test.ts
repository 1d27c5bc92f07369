import { TRPCClientError } from "@trpc/client";
import { describe, expect, it } from "vitest";

import { signupRefusalText } from "./-signup-texts";

const refusal = (code: string, message: string, values: Record<string, unknown> = {}) =>
  TRPCClientError.from({ error: { code: -32600, message, data: { code, httpStatus: 400, ...values } } });

describe("what /aanmelden says when the server refuses", () => {
  it("says a closed sign-up in its own Dutch words, not the server's bare 404 text", () => {
    expect(signupRefusalText(refusal("CLUB_SIGNUP_CLOSED", "Not found"))).toBe("Aanmelden is op dit moment niet mogelijk.");
  });

  it("shows the sign-up's own refusals as the server wrote them (they are Dutch)", () => {
    const taken = "Dit adres is al van een andere club; kies een ander.";
    expect(signupRefusalText(refusal("CLUB_SLUG_TAKEN", taken))).toBe(taken);
  });

  it("puts a field that fails the server's schema into Dutch by its code", () => {
    expect(signupRefusalText(refusal("FIELD_TOO_LONG", "email is too long", { field: "email", maximum: 254 }))).toBe(
      "E-mailadres is te lang (hoogstens 254 tekens)",
    );
  });

  it("has a Dutch line for a failure the server never answered", () => {
    expect(signupRefusalText(TRPCClientError.from(new TypeError("Failed to fetch")))).toBe(
      "Er ging iets mis. Controleer je verbinding en probeer het opnieuw.",
    );
  });
});
