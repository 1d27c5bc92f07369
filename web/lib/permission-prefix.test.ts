import { describe, expect, it } from "vitest";

import { groupByPrefix, permissionPrefix } from "./permission-prefix";

describe("permissionPrefix", () => {
  it("is the part of the key before the first dot", () => {
    expect(permissionPrefix("users.assign")).toBe("users");
    expect(permissionPrefix("orders.invoice.resend")).toBe("orders");
  });

  it("is the whole key when the key has no dot", () => {
    expect(permissionPrefix("legacy")).toBe("legacy");
  });
});

describe("groupByPrefix", () => {
  it("puts permissions with the same prefix together, prefixes in alphabetical order", () => {
    const keys = ["users.delete", "admin.access", "users.assign", "settings.delete"].map((key) => ({ key }));
    expect(groupByPrefix(keys)).toEqual([
      { prefix: "admin", items: [{ key: "admin.access" }] },
      { prefix: "settings", items: [{ key: "settings.delete" }] },
      { prefix: "users", items: [{ key: "users.delete" }, { key: "users.assign" }] },
    ]);
  });

  it("gives no groups for no permissions", () => {
    expect(groupByPrefix([])).toEqual([]);
  });
});
