import { describe, expect, it } from "vitest";
import { BUILT_IN_SETTINGS } from "#src/features/settings/settings.defaults";
import { PLATFORM_PERMISSION, SEED_GROUPS, SEED_PERMISSIONS } from "#src/features/setup/seed-data";
import { DUTCH_BUILT_IN_TEXTS, groupDescription, permissionDescription, settingDescription, settingGroupTitle } from "./built-in-texts";

describe("the built-in descriptions in Dutch", () => {
  it("has a Dutch text for every built-in setting, permission, group and settings group, and none for anything else", () => {
    expect(Object.keys(DUTCH_BUILT_IN_TEXTS.settings).sort()).toEqual(BUILT_IN_SETTINGS.map((s) => s.key).sort());
    expect(Object.keys(DUTCH_BUILT_IN_TEXTS.permissions).sort()).toEqual(
      [...SEED_PERMISSIONS, PLATFORM_PERMISSION].map((p) => p.key).sort(),
    );
    expect(Object.keys(DUTCH_BUILT_IN_TEXTS.groups).sort()).toEqual(SEED_GROUPS.map((g) => g.name).sort());
    expect(Object.keys(DUTCH_BUILT_IN_TEXTS.settingGroups).sort()).toEqual([...new Set(BUILT_IN_SETTINGS.map((s) => s.group_name))].sort());
  });

  it("shows the seed's words in Dutch, and a description an admin typed as typed", () => {
    const club = BUILT_IN_SETTINGS.find((s) => s.key === "club_name")!;
    expect(settingDescription("club_name", club.description, "nl")).toBe("Naam van de club, op de site en op facturen.");
    expect(settingDescription("club_name", club.description, "en")).toBe(club.description);
    expect(settingDescription("club_name", "Onze naam", "nl")).toBe("Onze naam");
    expect(settingDescription("club_motto", "Motto", "nl")).toBe("Motto");
    expect(permissionDescription("users.delete", "Delete users.", "nl")).toBe("Gebruikers verwijderen.");
    expect(permissionDescription("users.delete", "Mag weg", "nl")).toBe("Mag weg");
    expect(groupDescription("Users", "Registered users (default group).", "nl")).toBe("Geregistreerde gebruikers (standaardgroep).");
    expect(groupDescription("Users", "Registered users (default group).", "en")).toBe("Registered users (default group).");
  });

  it("titles settings groups: Dutch for the built-in ones, the name made readable otherwise", () => {
    expect(settingGroupTitle("invoice", "nl")).toBe("Facturen");
    expect(settingGroupTitle("invoice", "en")).toBe("Invoice");
    expect(settingGroupTitle("club_extra", "nl")).toBe("Club extra");
  });
});
