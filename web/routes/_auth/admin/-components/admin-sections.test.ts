import { describe, expect, it } from "vitest";

import { catalogues } from "@/i18n/catalogue";
import { ADMIN_AREA_PERMISSIONS, mayOpenAdminArea } from "@/lib/permissions";
import { ADMIN_SECTIONS, permissionForAdminPath, sectionsFor } from "./admin-sections";

const withKeys = (...keys: string[]) => ({ permissions: keys.map((key) => ({ key })) });
const titles = (user: ReturnType<typeof withKeys>) => sectionsFor(user).map((s) => catalogues.en.shell.sections[s.key].title);

describe("the admin sections a user may open", () => {
  it("are all of them for an admin", () => {
    expect(titles(withKeys("admin.access"))).toEqual(["Users", "Groups", "Permissions", "Settings", "Versions", "Management", "Audit Log"]);
  });

  it("add Clubs only for a holder of platform.access itself, which admin.access does not pass", () => {
    expect(titles(withKeys("admin.access", "platform.access")).at(-1)).toBe("Clubs");
    expect(titles(withKeys("admin.access"))).not.toContain("Clubs");
    expect(titles(withKeys("platform.access"))).toEqual([]);
  });

  it("are only Management for a treasurer (management.access)", () => {
    expect(titles(withKeys("management.access"))).toEqual(["Management"]);
  });

  it("are none for anyone else", () => {
    expect(titles(withKeys("users.assign"))).toEqual([]);
    expect(mayOpenAdminArea(withKeys("users.assign"))).toBe(false);
    expect(mayOpenAdminArea(withKeys("management.access"))).toBe(true);
  });

  it("each need a permission that opens the admin area, so the header link never hides an open page", () => {
    for (const section of ADMIN_SECTIONS) expect(ADMIN_AREA_PERMISSIONS).toContain(section.permission);
  });

  it("each have one key, with a title and a description in every language", () => {
    const keys = ADMIN_SECTIONS.map((s) => s.key);
    expect(new Set(keys).size).toBe(keys.length);
    for (const catalogue of Object.values(catalogues)) {
      expect(Object.keys(catalogue.shell.sections).sort()).toEqual([...keys].sort());
    }
  });
});

describe("permissionForAdminPath", () => {
  it("asks nothing more for /admin itself", () => {
    expect(permissionForAdminPath("/admin")).toBeNull();
    expect(permissionForAdminPath("/admin/")).toBeNull();
  });

  it("asks a page's section permission, also below it", () => {
    expect(permissionForAdminPath("/admin/management")).toBe("management.access");
    expect(permissionForAdminPath("/admin/users")).toBe("admin.access");
    expect(permissionForAdminPath("/admin/settings/")).toBe("admin.access");
  });

  it("asks admin.access for an admin path without a section", () => {
    expect(permissionForAdminPath("/admin/managementx")).toBe("admin.access");
    expect(permissionForAdminPath("/admin/no-such-page")).toBe("admin.access");
  });
});
