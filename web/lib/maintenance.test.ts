import { describe, expect, it } from "vitest";

import { shouldRedirectToMaintenance } from "./maintenance";

const on = { maintenance_mode: true };
const off = { maintenance_mode: false };
const admin = { permissions: [{ key: "admin.access" }] };
const member = { permissions: [{ key: "premium.aiusage" }] };

describe("shouldRedirectToMaintenance", () => {
  it("sends visitors and users without admin.access to /maintenance while maintenance is on", () => {
    expect(shouldRedirectToMaintenance(on, null, "/")).toBe(true);
    expect(shouldRedirectToMaintenance(on, member, "/account")).toBe(true);
  });

  it("lets holders of admin.access through", () => {
    expect(shouldRedirectToMaintenance(on, admin, "/admin")).toBe(false);
  });

  it("never redirects from /maintenance or /login", () => {
    expect(shouldRedirectToMaintenance(on, null, "/maintenance")).toBe(false);
    expect(shouldRedirectToMaintenance(on, null, "/login")).toBe(false);
    expect(shouldRedirectToMaintenance(on, null, "/login/")).toBe(false);
  });

  it("does nothing while maintenance is off or unknown", () => {
    expect(shouldRedirectToMaintenance(off, null, "/")).toBe(false);
    expect(shouldRedirectToMaintenance({}, null, "/")).toBe(false);
  });
});
