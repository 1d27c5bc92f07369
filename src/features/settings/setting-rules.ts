/**
 * Rules for the values of particular built-in settings (docs/decisions/003), in one module that the settings
 * service (refusing a bad value on save), the invoice service (refusing to send with placeholders) and
 * the settings screen (a select for a choice) all import. Pure functions: no database, no runtime.
 */

import { isValidKvkNumber, isValidVatId } from '../../core/business-ids';
import { AppError } from '../../core/errors';

/** Settings whose value is one of a fixed list; the settings screen shows them as a select. */
export const SETTING_CHOICES: Readonly<Record<string, readonly string[]>> = {
  geocoder_provider: ['pdok', 'nominatim'],
};

/** VAT rates a Dutch Christmas package can carry: 0 % (exempt), 9 % (food), 21 % (everything else). */
export const DUTCH_VAT_RATES = [0, 9, 21] as const;

/** ISO 13616 IBAN check: country, two check digits, then letters and digits; the mod-97 remainder must be 1. */
export function isValidIban(raw: string): boolean {
  const iban = normaliseIban(raw);
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return false;
  // A Dutch IBAN is always 18 characters: NL, 2 check digits, 4-letter bank code, 10 digits.
  if (iban.startsWith('NL') && !/^NL\d{2}[A-Z]{4}\d{10}$/.test(iban)) return false;
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const char of rearranged) {
    const value = char >= 'A' ? char.charCodeAt(0) - 55 : Number(char);
    remainder = (remainder * (value >= 10 ? 100 : 10) + value) % 97;
  }
  return remainder === 1;
}

/** Spaces and lower case as people type them: 'nl91 abna 0417 1643 00' → 'NL91ABNA0417164300'. */
export function normaliseIban(raw: string): string {
  return raw.replace(/\s+/g, '').toUpperCase();
}

/** Settings whose value is a link or an address the server calls: http(s) only (docs/decisions/055). */
export const URL_SETTINGS: readonly string[] = ['club_facebook_url', 'club_website_url', 'geocoder_url'];

/** The club's own links may also be empty: the footer then leaves them out (docs/decisions/073). */
const OPTIONAL_LINK_SETTINGS: readonly string[] = ['club_facebook_url', 'club_website_url'];

/** An absolute http:// or https:// URL with a host; not javascript:, data: or anything else a link could run. */
export function isHttpUrl(value: string): boolean {
  if (!/^https?:\/\//i.test(value.trim())) return false;
  try {
    const url = new URL(value.trim());
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** A ledger account as accounting packages number them: 1 to 20 letters, digits, dots or dashes (docs/decisions/076). */
export const isLedgerAccount = (value: string) => /^[A-Za-z0-9][A-Za-z0-9.-]{0,19}$/.test(value);

/** A Mollie API key as its dashboard shows it: test_ or live_ and at least 30 letters and digits. */
export const isMollieApiKey = (value: string) => /^(test|live)_[A-Za-z0-9]{30,}$/.test(value);

const NOT_A_SPLIT = 'The VAT split must be a list of {label, share_percent, vat_rate}.';

/** Why a `vat_split` value is not usable, or null when it is. */
export function vatSplitProblem(raw: string): AppError | null {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return new AppError('SETTING_NOT_JSON', 'Value must be valid JSON.');
  }
  if (!Array.isArray(value) || value.length === 0) return new AppError('VAT_SPLIT_INVALID', NOT_A_SPLIT);
  let total = 0;
  for (const item of value) {
    if (typeof item !== 'object' || item === null) return new AppError('VAT_SPLIT_INVALID', NOT_A_SPLIT);
    const { label, share_percent, vat_rate } = item as Record<string, unknown>;
    if (typeof label !== 'string' || label.trim() === '') return new AppError('VAT_SPLIT_LABEL_MISSING', 'Every part of the VAT split needs a label.');
    if (typeof share_percent !== 'number' || !(share_percent > 0) || share_percent > 100)
      return new AppError('VAT_SPLIT_SHARE_INVALID', 'Every share_percent must be a number above 0 and at most 100.');
    if (typeof vat_rate !== 'number' || !(DUTCH_VAT_RATES as readonly number[]).includes(vat_rate))
      return new AppError('VAT_SPLIT_RATE_INVALID', `Every vat_rate must be one of ${DUTCH_VAT_RATES.join(', ')}.`, { values: DUTCH_VAT_RATES });
    total += share_percent;
  }
  const sum = Math.round(total * 100) / 100;
  if (Math.abs(total - 100) > 1e-6)
    return new AppError('VAT_SPLIT_TOTAL_WRONG', `The shares of the VAT split must add up to 100 (now ${sum}).`, { total: sum });
  return null;
}

/**
 * The refusal for a value of a setting with a rule, or null when the value is fine (or the setting
 * has no rule). English: the settings screen is English (the specification's admin texts).
 */
export function settingValueProblem(key: string, value: string): AppError | null {
  const choices = SETTING_CHOICES[key];
  if (choices && !choices.includes(value)) return new AppError('SETTING_NOT_ONE_OF', `Value must be one of: ${choices.join(', ')}.`, { values: choices });
  if (URL_SETTINGS.includes(key) && !isHttpUrl(value) && !(value === '' && OPTIONAL_LINK_SETTINGS.includes(key)))
    return new AppError('SETTING_URL_INVALID', 'Value must be an http:// or https:// address (e.g. https://www.example.nl/).');
  if (key.startsWith('ledger_') && !isLedgerAccount(value))
    return new AppError('LEDGER_ACCOUNT_INVALID', 'Value must be a ledger account: 1 to 20 letters, digits, dots or dashes (e.g. 8000).');
  switch (key) {
    case 'vat_split':
      return vatSplitProblem(value);
    case 'club_iban':
      return isValidIban(value) ? null : new AppError('IBAN_INVALID', 'Value must be a valid IBAN (e.g. NL91ABNA0417164300): the check digits do not match.');
    case 'club_kvk_number':
      return isValidKvkNumber(value) ? null : new AppError('KVK_NUMBER_INVALID', 'Value must be a KvK number of 8 digits.');
    case 'mollie_api_key':
      return value === '' || isMollieApiKey(value)
        ? null
        : new AppError('MOLLIE_KEY_INVALID', 'Value must be a Mollie API key: test_ or live_ followed by at least 30 letters and digits (or empty).');
    case 'club_vat_id':
      return isValidVatId(value) ? null : new AppError('VAT_ID_INVALID', 'Value must be a Dutch VAT id: NL, 9 digits, B, 2 digits (e.g. NL123456789B01).');
    default:
      return null;
  }
}

/** The club's payment and registration details an invoice must carry, with their seeded placeholders. */
export const INVOICE_IDENTITY_SETTINGS = [
  { key: 'club_iban', label: 'het IBAN', placeholder: 'NL00BANK0000000000', valid: isValidIban },
  { key: 'club_kvk_number', label: 'het KvK-nummer', placeholder: '00000000', valid: isValidKvkNumber },
  { key: 'club_vat_id', label: 'het btw-nummer', placeholder: 'NL000000000B01', valid: isValidVatId },
] as const;

export interface InvoiceSettingProblem {
  key: string;
  message: string;
}

/**
 * What keeps invoices from going out (docs/decisions/019): a club IBAN, KvK number or VAT id that is still the
 * seeded placeholder or is not valid. Dutch: the Management dashboard and its refusals are Dutch.
 */
export function invoiceSettingProblems(values: Readonly<Record<string, string>>): InvoiceSettingProblem[] {
  const problems: InvoiceSettingProblem[] = [];
  for (const setting of INVOICE_IDENTITY_SETTINGS) {
    const value = (values[setting.key] ?? '').trim();
    if (value === '' || value === setting.placeholder) {
      problems.push({ key: setting.key, message: `Vul eerst ${setting.label} van de club in (instelling ${setting.key}): er staat nog een voorbeeldwaarde.` });
    } else if (!setting.valid(value)) {
      problems.push({ key: setting.key, message: `De instelling ${setting.key} bevat geen geldig ${setting.label.replace(/^het /, '')}.` });
    }
  }
  return problems;
}
