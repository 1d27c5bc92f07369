import { describe, expect, it } from "vitest";

import { getRequiredSetting, getSetting, isSettingOn, toSettingsLookup } from "./settings";

const settings = [
  { key: "allow_registration", value: false },
  { key: "password_min_length", value: 6 },
  { key: "maintenance_mode", value: true },
  { key: "club_name", value: "Ronde Tafel 144 Harlingen" },
  { key: "smtp_password", value: null },
];

describe("toSettingsLookup", () => {
  it("turns the settings list into a key-to-value lookup", () => {
    expect(toSettingsLookup(settings)).toEqual({
      allow_registration: false,
      password_min_length: 6,
      maintenance_mode: true,
      club_name: "Ronde Tafel 144 Harlingen",
      smtp_password: null,
    });
  });

  it("gives an empty lookup for a missing list", () => {
    expect(toSettingsLookup(undefined)).toEqual({});
    expect(toSettingsLookup(null)).toEqual({});
  });
});

describe("getRequiredSetting", () => {
  const lookup = toSettingsLookup(settings);

  it("returns the value of a present setting, including false, 0 and null", () => {
    expect(getRequiredSetting(lookup, "allow_registration")).toBe(false);
    expect(getRequiredSetting(lookup, "password_min_length")).toBe(6);
    expect(getRequiredSetting(lookup, "smtp_password")).toBeNull();
  });

  it("throws 'Missing required setting <key>' for an absent key", () => {
    expect(() => getRequiredSetting(lookup, "package_price")).toThrow("Missing required setting package_price");
  });

  it("does not treat inherited object properties as settings", () => {
    expect(() => getRequiredSetting(lookup, "toString")).toThrow("Missing required setting toString");
  });
});

describe("getSetting", () => {
  it("falls back to the default only when the key is absent", () => {
    const lookup = toSettingsLookup(settings);
    expect(getSetting(lookup, "allow_registration", true)).toBe(false);
    expect(getSetting(lookup, "registration_requires_activation", false)).toBe(false);
  });
});

describe("isSettingOn", () => {
  it("is true only for a switched-on boolean setting", () => {
    const lookup = toSettingsLookup(settings);
    expect(isSettingOn(lookup, "maintenance_mode")).toBe(true);
    expect(isSettingOn(lookup, "allow_registration")).toBe(false);
    expect(isSettingOn(lookup, "not_there")).toBe(false);
  });
});
