import { describe, expect, it } from "vitest";

import { ERROR_STATUS, type ErrorCode } from "#src/core/error-codes";
import { hasDutchText, SENT_IN_DUTCH, translateRefusal } from "./server-errors";

// docs/decisions/062: the back-office translates a refusal by its code, with the values the server sent beside it.

const refusal = (code: ErrorCode | undefined, message: string, values: Record<string, unknown> = {}) => ({ code, message, values });

describe("translateRefusal", () => {
  it("gives every code either a Dutch text or the mark that its server text is Dutch already, never both", () => {
    const codes = Object.keys(ERROR_STATUS) as ErrorCode[];
    expect(codes.filter((code) => !hasDutchText(code) && !SENT_IN_DUTCH.includes(code))).toEqual([]);
    expect(codes.filter((code) => hasDutchText(code) && SENT_IN_DUTCH.includes(code))).toEqual([]);
    expect(SENT_IN_DUTCH.filter((code) => !(code in ERROR_STATUS))).toEqual([]);
  });

  it("translates by code, whatever the text", () => {
    expect(translateRefusal(refusal("INVALID_CREDENTIALS", "Invalid username or password"), "nl")).toBe(
      "Gebruikersnaam of wachtwoord is onjuist",
    );
    expect(translateRefusal(refusal("FORBIDDEN", "Forbidden!"), "nl")).toBe("Geen toegang");
  });

  it("puts the values the server sent into the Dutch text", () => {
    expect(translateRefusal(refusal("PASSWORD_TOO_SHORT", "Password must be at least 8 characters.", { min_length: 8 }), "nl")).toBe(
      "Het wachtwoord moet minstens 8 tekens lang zijn.",
    );
    expect(translateRefusal(refusal("VERSION_CODE_TAKEN", "Version code 42 already exists", { version_code: 42 }), "nl")).toBe(
      "Versiecode 42 bestaat al",
    );
    expect(translateRefusal(refusal("VAT_SPLIT_TOTAL_WRONG", "…", { total: 99.5 }), "nl")).toBe(
      "De aandelen in de btw-verdeling moeten samen 100 zijn (nu 99.5).",
    );
    expect(translateRefusal(refusal("SETTING_NOT_ONE_OF", "…", { values: ["pdok", "nominatim"] }), "nl")).toBe(
      "De waarde moet een van deze zijn: pdok, nominatim.",
    );
  });

  it("names the field of a schema refusal, in Dutch where the field has a Dutch name", () => {
    expect(translateRefusal(refusal("FIELD_TOO_LONG", "description is too long", { field: "description", maximum: 500 }), "nl")).toBe(
      "Omschrijving is te lang (hoogstens 500 tekens)",
    );
    expect(translateRefusal(refusal("FIELD_TOO_SHORT", "Username is required", { field: "username", minimum: 1 }), "nl")).toBe(
      "Gebruikersnaam is verplicht",
    );
    expect(translateRefusal(refusal("FIELD_WRONG_TYPE", "page must be a number", { field: "page", expected: "number" }), "nl")).toBe(
      "page moet een getal zijn",
    );
    expect(translateRefusal(refusal("FIELD_NOT_ALLOWED", "…", { field: "locale", values: ["en", "nl"] }), "nl")).toBe(
      "De taal moet een van deze zijn: en, nl",
    );
  });

  it("shows the server's text in English, for a campaign code (Dutch already), and without a code", () => {
    expect(translateRefusal(refusal("INVALID_CREDENTIALS", "Invalid username or password"), "en")).toBe("Invalid username or password");
    expect(translateRefusal(refusal("ORDER_NOT_FOUND", "Bestelling niet gevonden."), "nl")).toBe("Bestelling niet gevonden.");
    expect(translateRefusal(refusal(undefined, "Something else"), "nl")).toBe("Something else");
    expect(translateRefusal({ code: "A_CODE_FROM_A_NEWER_SERVER", message: "New text", values: {} }, "nl")).toBe("New text");
  });
});
