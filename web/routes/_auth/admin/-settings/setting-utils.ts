import type { Messages } from "@/i18n/catalogue";
import type { RouterOutputs } from "@/lib/trpc";

// docs/product.md §3 "Setting" and §4 "Setting row", shared by the inline rows and the add/edit dialog.

export type Setting = RouterOutputs["settings"]["list"]["settings"][number];
export type SettingType = Setting["type"];
export type SettingVisibility = Setting["visibility"];

export const SETTING_TYPES: readonly SettingType[] = ["string", "integer", "boolean", "json", "password"];
export const SETTING_VISIBILITIES: readonly SettingVisibility[] = ["public", "private", "admin"];

/** docs/product.md §5 / §9: the group a setting without one belongs to. */
export const DEFAULT_GROUP = "general";

/** The setting whose value is chosen from the groups (docs/product.md §3). */
export const DEFAULT_USER_GROUP_KEY = "default_user_group_id";

/** The id of a setting's row on the settings page, so a link can lead to one setting: /admin/settings#setting-<key>. */
export function settingAnchor(key: string): string {
  return `setting-${key}`;
}

/** docs/product.md §4: a row is unedited, edited (yellow), saved (green) or in error (red). */
export type RowState = "unedited" | "edited" | "saved" | "error";

export type SettingGroup = { name: string; settings: Setting[] };

/** Settings grouped by group_name: 'general' first, then the others by name; keys sorted. */
export function groupSettings(settings: readonly Setting[]): SettingGroup[] {
  const byName = new Map<string, Setting[]>();
  for (const setting of settings) {
    const name = setting.group_name.trim() || DEFAULT_GROUP;
    const list = byName.get(name) ?? [];
    list.push(setting);
    byName.set(name, list);
  }
  return [...byName.entries()]
    .sort(([a], [b]) => (a === DEFAULT_GROUP ? -1 : b === DEFAULT_GROUP ? 1 : a.localeCompare(b)))
    .map(([name, list]) => ({ name, settings: list.sort((a, b) => a.key.localeCompare(b.key)) }));
}

/** The setting's value as the text an editor starts from (a password's value is never sent). */
export function valueAsText(setting: Pick<Setting, "type" | "value">): string {
  switch (setting.type) {
    case "boolean":
      return setting.value === true || setting.value === "true" ? "true" : "false";
    case "password":
      return "";
    case "json":
      return prettyJson(String(setting.value ?? ""));
    default:
      return String(setting.value ?? "");
  }
}

/** JSON laid out over lines for editing; the text unchanged when it does not parse. */
export function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** docs/product.md §5: an integer edit that does not parse falls back to 0. */
export function integerOrZero(text: string): string {
  const parsed = Number.parseInt(text.trim(), 10);
  return String(Number.isSafeInteger(parsed) ? parsed : 0);
}

/** 'Between 6 and 128', 'At least 1', 'At most 90' (in `t`'s language), or null without bounds. */
export function boundsText(t: Messages, min: number | null, max: number | null): string | null {
  if (min !== null && max !== null) return t.settings.row.between(min, max);
  if (min !== null) return t.settings.row.atLeast(min);
  if (max !== null) return t.settings.row.atMost(max);
  return null;
}
