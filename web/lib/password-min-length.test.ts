import { describe, expect, it } from "vitest";

import { passwordMinLength } from "./password-min-length";

describe("passwordMinLength", () => {
  it("reads the password_min_length setting", () => {
    expect(passwordMinLength({ password_min_length: 10 })).toBe(10);
    expect(passwordMinLength({ password_min_length: "8" })).toBe(8);
  });

  it("falls back to 6 when the setting is missing or not a positive whole number", () => {
    expect(passwordMinLength({})).toBe(6);
    expect(passwordMinLength({ password_min_length: "many" })).toBe(6);
    expect(passwordMinLength({ password_min_length: 0 })).toBe(6);
  });
});
