// docs/product.md §3: the settings list is turned into a key-to-value lookup; reading a missing setting
// without a default is an error.

export type SettingValue = string | number | boolean | null;

export type SettingsLookup = Readonly<Record<string, SettingValue>>;

export function toSettingsLookup(settings: ReadonlyArray<{ key: string; value: SettingValue }> | null | undefined): SettingsLookup {
  const lookup: Record<string, SettingValue> = {};
  for (const setting of settings ?? []) lookup[setting.key] = setting.value;
  return lookup;
}

export function getRequiredSetting(lookup: SettingsLookup, key: string): SettingValue {
  if (!Object.hasOwn(lookup, key)) throw new Error(`Missing required setting ${key}`);
  return lookup[key] as SettingValue;
}

/** A setting with a default (docs/product.md §3 known keys), for keys the UI can live without. */
export function getSetting(lookup: SettingsLookup, key: string, fallback: SettingValue): SettingValue {
  return Object.hasOwn(lookup, key) ? (lookup[key] as SettingValue) : fallback;
}

/** Booleans arrive typed from the server; older data may still hold "true"/"1". */
export function isSettingOn(lookup: SettingsLookup, key: string): boolean {
  const value = lookup[key];
  return value === true || value === "true" || value === 1 || value === "1";
}
