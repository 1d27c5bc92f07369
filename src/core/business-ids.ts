/**
 * The registration numbers a business has in the Netherlands and the EU: the club's own (settings) and a business
 * customer's on an order (docs/decisions/078). One module, so the settings, the order form and the server read them
 * alike.
 */

export const KVK_NUMBER_LABEL = 'KvK-nummer';
export const VAT_ID_LABEL = 'Btw-id';

/** A KvK number: eight digits. */
export const isValidKvkNumber = (value: string) => /^\d{8}$/.test(value.trim());
/** The Dutch VAT identification number (btw-id): NL, nine digits, B, two digits. */
export const isValidVatId = (value: string) => /^NL\d{9}B\d{2}$/.test(value.trim().toUpperCase());

/**
 * The prefixes of the EU's VAT numbers (EL for Greece, XI for Northern Ireland), each followed by 2 to 12 letters and
 * digits in that country's format; only the Dutch one is checked in full here, as a Dutch club's customers mostly are.
 */
const EU_VAT_PREFIXES = 'AT|BE|BG|CY|CZ|DE|DK|EE|EL|ES|FI|FR|HR|HU|IE|IT|LT|LU|LV|MT|NL|PL|PT|RO|SE|SI|SK|XI';
const EU_VAT_ID = new RegExp(`^(?:${EU_VAT_PREFIXES})[0-9A-Z+*]{2,12}$`);

export const CUSTOMER_KVK_MESSAGE = 'Vul een geldig KvK-nummer in (8 cijfers).';
export const CUSTOMER_VAT_MESSAGE = 'Vul een geldig btw-id in, zoals NL123456789B01.';

/** A number as people type it ('1234 5678', 'nl 1234.56.789.b01'): without spaces, dots and dashes, in capitals. */
const compact = (raw: string) => raw.replace(/[\s.-]/g, '').toUpperCase();

/** A customer's KvK number as stored ('12345678'), or null when it is none. */
export function customerKvkNumber(raw: string): string | null {
  const value = compact(raw);
  return isValidKvkNumber(value) ? value : null;
}

/** A customer's VAT id as stored ('NL123456789B01', 'BE0123456789'), or null when it is none. */
export function customerVatId(raw: string): string | null {
  const value = compact(raw);
  if (!EU_VAT_ID.test(value)) return null;
  return value.startsWith('NL') && !isValidVatId(value) ? null : value;
}
