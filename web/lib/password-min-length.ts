import { getSetting, type SettingsLookup } from "@/lib/settings";
import { PASSWORD_MIN_LENGTH } from "#src/core/credential-rules";

// docs/product.md §3 known keys / §9: registration and admin password resets need at least
// password_min_length characters (default PASSWORD_MIN_LENGTH).
export function passwordMinLength(settings: SettingsLookup): number {
  const value = Number(getSetting(settings, "password_min_length", PASSWORD_MIN_LENGTH));
  return Number.isInteger(value) && value > 0 ? value : PASSWORD_MIN_LENGTH;
}
