import { TRPCClientError } from "@trpc/client";
import { describe, expect, it } from "vitest";

import { errorText, isServerAnswer, serverErrorText } from "./errors";

function serverError(message: string) {
  return TRPCClientError.from({ error: { code: -32600, message, data: { code: "BAD_REQUEST", httpStatus: 400 } } });
}

describe("serverErrorText", () => {
  it("gives the text the server answered with", () => {
    expect(serverErrorText(serverError("Invalid username or password"))).toBe("Invalid username or password");
  });

  it("gives null when the server never answered", () => {
    expect(serverErrorText(TRPCClientError.from(new TypeError("Failed to fetch")))).toBeNull();
    expect(serverErrorText(new Error("boom"))).toBeNull();
  });
});

describe("errorText", () => {
  it("prefers the server's text", () => {
    expect(errorText(serverError("Email is already in use"), "Failed to update email")).toBe("Email is already in use");
  });

  it("falls back to the screen's text when the server answered without one", () => {
    expect(errorText(serverError(" "), "Login failed", "Unexpected error during login")).toBe("Login failed");
  });

  it("uses the exception text when the call never reached the server", () => {
    const offline = TRPCClientError.from(new TypeError("Failed to fetch"));
    expect(isServerAnswer(offline)).toBe(false);
    expect(errorText(offline, "Login failed", "Unexpected error during login")).toBe("Unexpected error during login");
    expect(errorText(offline, "Failed to update email")).toBe("Failed to update email");
  });
});
