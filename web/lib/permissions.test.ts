import { describe, expect, it } from "vitest";

import { hasPermission } from "./permissions";

const withKeys = (...keys: string[]) => ({ permissions: keys.map((key) => ({ key })) });

describe("hasPermission", () => {
  it("is true when the permission list holds the key", () => {
    expect(hasPermission(withKeys("users.assign"), "users.assign")).toBe(true);
  });

  it("is false when the permission list lacks the key", () => {
    expect(hasPermission(withKeys("users.assign"), "users.delete")).toBe(false);
  });

  it("lets holders of admin.access pass every check", () => {
    expect(hasPermission(withKeys("admin.access"), "premium.aiusage")).toBe(true);
    expect(hasPermission(withKeys("admin.access"), "settings.delete")).toBe(true);
  });

  it("gives no permissions without a user", () => {
    expect(hasPermission(null, "admin.access")).toBe(false);
    expect(hasPermission(undefined, "admin.access")).toBe(false);
  });

  it("gives no permissions without a permission list", () => {
    expect(hasPermission({}, "admin.access")).toBe(false);
    expect(hasPermission({ permissions: null }, "admin.access")).toBe(false);
    expect(hasPermission({ permissions: [] }, "admin.access")).toBe(false);
  });

  it("matches keys exactly, not by prefix", () => {
    expect(hasPermission(withKeys("users.assign"), "users")).toBe(false);
    expect(hasPermission(withKeys("admin.accessory"), "users.delete")).toBe(false);
  });
});
