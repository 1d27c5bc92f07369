import { describe, expect, it } from "vitest";

import { catalogues } from "@/i18n/catalogue";
import { boundsText, groupSettings, integerOrZero, type Setting, valueAsText } from "./setting-utils";

function setting(overrides: Partial<Setting>): Setting {
  return {
    key: "k",
    value: "",
    type: "string",
    description: "",
    visibility: "public",
    deletable: true,
    min_value: null,
    max_value: null,
    group_name: "general",
    ...overrides,
  } as Setting;
}

describe("groupSettings", () => {
  it("groups by group_name with 'general' first, the rest by name, keys sorted", () => {
    const groups = groupSettings([
      setting({ key: "z", group_name: "club" }),
      setting({ key: "b", group_name: "auth" }),
      setting({ key: "m", group_name: "general" }),
      setting({ key: "a", group_name: "club" }),
      setting({ key: "blank", group_name: "" }),
    ]);
    expect(groups.map((g) => g.name)).toEqual(["general", "auth", "club"]);
    expect(groups[0]!.settings.map((s) => s.key)).toEqual(["blank", "m"]);
    expect(groups[2]!.settings.map((s) => s.key)).toEqual(["a", "z"]);
  });
});

describe("valueAsText", () => {
  it("turns typed values into editor text; a password starts empty", () => {
    expect(valueAsText(setting({ type: "boolean", value: true }))).toBe("true");
    expect(valueAsText(setting({ type: "boolean", value: false }))).toBe("false");
    expect(valueAsText(setting({ type: "integer", value: 6 }))).toBe("6");
    expect(valueAsText(setting({ type: "password", value: "" }))).toBe("");
    expect(valueAsText(setting({ type: "json", value: '{"a":1}' }))).toBe('{\n  "a": 1\n}');
    expect(valueAsText(setting({ type: "json", value: "{broken" }))).toBe("{broken");
  });
});

describe("integerOrZero (docs/product.md §5: unparseable integer edits fall back to 0)", () => {
  it("parses whole numbers and falls back to 0", () => {
    expect(integerOrZero("12")).toBe("12");
    expect(integerOrZero(" -3 ")).toBe("-3");
    expect(integerOrZero("")).toBe("0");
    expect(integerOrZero("abc")).toBe("0");
    expect(integerOrZero("7.9")).toBe("7");
  });
});

describe("labels", () => {
  it("describes bounds and group names", () => {
    expect(boundsText(catalogues.en, 6, 128)).toBe("Between 6 and 128");
    expect(boundsText(catalogues.en, 1, null)).toBe("At least 1");
    expect(boundsText(catalogues.en, null, 90)).toBe("At most 90");
    expect(boundsText(catalogues.en, null, null)).toBeNull();
    expect(boundsText(catalogues.nl, 6, 128)).toBe("Tussen 6 en 128");
  });
});
