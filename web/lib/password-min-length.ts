import { getSetting, type SettingsLookup } from "@/lib/settings";

// docs/product.md §3 known keys / §9: registration and admin password resets need at least
// password_min_length characters (default 6).
export const DEFAULT_PASSWORD_MIN_LENGTH = 6;

export function passwordMinLength(settings: SettingsLookup): number {
  const value = Number(getSetting(settings, "password_min_length", DEFAULT_PASSWORD_MIN_LENGTH));
  return Number.isInteger(value) && value > 0 ? value : DEFAULT_PASSWORD_MIN_LENGTH;
}
