/**
 * The rules of the public order and contact forms, with the exact Dutch texts of docs/product.md §5: one module
 * for the server (its zod schemas, public-form-schemas.ts, and services) and the browser
 * (web/lib/public-forms.ts checks a form before it is sent). Pure functions and constants without
 * imports, so the public pages' JavaScript carries no zod. The order password step's rules live with
 * the tablers they match (features/tablers/tabler-gate.ts, import-free as well), which the browser
 * imports in the same way.
 */

import { refusalText } from './input-issues';

/** The longest e-mail address there can be (RFC 5321's path limit less its brackets). */
export const EMAIL_MAX_LENGTH = 254;

export const requiredMessage = (label: string) => `${label} is verplicht.`;
export const tooLongMessage = (label: string, max: number) => `${label} is te lang (maximaal ${max} tekens).`;

/** The labels of the order form (docs/product.md §5), in the order the fields appear; the server's messages name them. */
export const ORDER_LABELS = {
  name: 'Naam',
  email: 'Email',
  phone: 'Telefoon',
  address: 'Adres',
  postalCode: 'Postcode',
  city: 'Plaats',
  quantity: 'Aantal kerstpakketten',
  notes: 'Opmerkingen',
} as const;

/** The longest text the server accepts per order field. */
export const ORDER_MAX_LENGTHS = {
  name: 100,
  email: EMAIL_MAX_LENGTH,
  phone: 40,
  address: 200,
  postalCode: 20,
  city: 100,
  notes: 2000,
} as const;

export const CONTACT_LABELS = {
  name: 'Naam',
  email: 'Email',
  subject: 'Onderwerp',
  message: 'Bericht',
} as const;

/** The longest text the server accepts per contact field. */
export const CONTACT_MAX_LENGTHS = {
  name: 100,
  email: EMAIL_MAX_LENGTH,
  subject: 200,
  message: 5000,
} as const;

export const INVALID_EMAIL_MESSAGE = refusalText('EMAIL_INVALID', 'Voer een geldig email adres in.');

/** A practical e-mail check: something@domain.tld, no spaces. */
export function isValidEmail(email: string): boolean {
  return email.length <= EMAIL_MAX_LENGTH && /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/.test(email);
}

/** docs/product.md §5 order form: the quantity is a whole number above 0. */
export const QUANTITY_MESSAGE = refusalText('QUANTITY_INVALID', 'Aantal kerstpakketten is verplicht en moet groter dan 0 zijn.');
/** A quantity typed with a decimal point or comma, or with letters: refused, never rounded or stripped (docs/decisions/056). */
export const QUANTITY_WHOLE_MESSAGE = refusalText('QUANTITY_NOT_WHOLE', 'Aantal kerstpakketten moet een heel getal zijn, zoals 1, 2 of 3.');

/**
 * A quantity as typed (text) or sent (a JSON number): the whole number it is, or the message that refuses
 * it. Only digits count as typed: '2.5', '2,5', '-3', '1e2' and '0x10' are refused as they stand, so no
 * keystroke is dropped on the way to a different number (docs/decisions/056). The upper bounds (500 on
 * the public form, 10 in the back-office) are the server's.
 */
export function parseQuantity(value: string | number): { quantity: number; error: null } | { quantity: null; error: string } {
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) return { quantity: null, error: QUANTITY_WHOLE_MESSAGE };
    return value < 1 ? { quantity: null, error: QUANTITY_MESSAGE } : { quantity: value, error: null };
  }
  const text = value.trim();
  if (text === '') return { quantity: null, error: QUANTITY_MESSAGE };
  if (/^\+?\d+$/.test(text)) {
    const quantity = Number(text);
    return quantity < 1 ? { quantity: null, error: QUANTITY_MESSAGE } : { quantity, error: null };
  }
  // A negative whole number is below 1, whatever else; anything else is no whole number.
  return /^-\s*\d+$/.test(text) ? { quantity: null, error: QUANTITY_MESSAGE } : { quantity: null, error: QUANTITY_WHOLE_MESSAGE };
}

/** docs/architecture.md §6 'The people, second pass': the public order form's postcode and phone rules. */
export const POSTCODE_MESSAGE = refusalText('POSTCODE_INVALID', 'Vul een geldige postcode in (1234 AB).');
export const PHONE_MESSAGE = refusalText('PHONE_INVALID', 'Vul een geldig telefoonnummer in.');

/** A Dutch postcode in any case and spacing ('8861bm', ' 8861  BM ') as it is stored: '8861 BM'; null when it is none. */
export function dutchPostcode(text: string): string | null {
  const match = /^([1-9]\d{3}) *([a-z]{2})$/i.exec(text.trim());
  return match ? `${match[1]} ${match[2]!.toUpperCase()}` : null;
}

/** 10 to 15 digits, with spaces, '+', '-', '(' and ')' between them and nothing else. */
export function isValidPhone(text: string): boolean {
  const trimmed = text.trim();
  if (!/^[\d +()-]+$/.test(trimmed)) return false;
  const digits = trimmed.replace(/\D/g, '').length;
  return digits >= 10 && digits <= 15;
}

/**
 * docs/decisions/014: the name on an order is repeated in the club's confirmation mail, so it may not
 * carry a link or an e-mail address (a stranger could otherwise make the club mail a phishing text to
 * anyone).
 */
export const NAME_LINK_MESSAGE = refusalText('NAME_HAS_LINK', 'Naam mag geen link of e-mailadres bevatten.');

// A scheme with its slash ('https://', 'hxxp:/'), a link word on its own ('www', 'http'), or a scheme that needs no slash.
const SCHEME = /[a-z][a-z0-9+.-]*:\/|\b(?:www|h[tx]{2}ps?)\b|\b(?:mailto|tel|sms|javascript|data):/i;
const EMAIL_IN_TEXT = /[^\s@]+@[^\s@]+\.[^\s@]+/;
// Anything a mail client could take for a host name: a dot (or one of the dots IDNA reads as one) with at
// least two letters or digits straight after it ('x.nl', 'bank-check.support', 'rabo。nl', '10.0.0.1'). A
// dot before a space or a single letter is an initial ('A. van Dijk', 'J.P. van der Meer') and passes.
const DOMAIN_LIKE = /[\p{L}\p{N}][.\u3002\uFF0E\uFF61][\p{L}\p{N}]{2}/u;
// A dot wrapped to slip past the rule above ('x[.]nl', 'x(.)nl'), or an IPv4 address of short parts ('1.2.3.4').
const WRAPPED_DOT_OR_IP = /[[(]\s*\.\s*[\])]|\b\d{1,3}(?:\.\d{1,3}){3}\b/;

/**
 * True when a name carries a link, a host name or an e-mail address (docs/decisions/055). Checked after
 * NFKC, so full-width look-alikes ('ｗｗｗ．ｘ．ｎｌ') count as the ASCII they imitate.
 */
export function nameHasLink(name: string): boolean {
  const text = name.normalize('NFKC');
  return SCHEME.test(text) || EMAIL_IN_TEXT.test(text) || DOMAIN_LIKE.test(text) || WRAPPED_DOT_OR_IP.test(text);
}

// A host name ending in a top-level domain mail programs are known to turn into a link ('bank-check.com',
// 'mijnbank.nl/login'); a dot before anything else ('17.00 uur', 'St.Annaparochie') is ordinary text.
const COMMON_HOST =
  /[\p{L}\p{N}-][.\u3002\uFF0E\uFF61](?:com|net|org|nl|be|de|eu|fr|uk|info|io|co|biz|xyz|app|online|site|shop|top|me|ly|link|click|support)\b/iu;

/**
 * True when free text (an address, a city, notes) holds what a mail program shows as a link: a scheme,
 * 'www', an e-mail address, an IP address or a common host name (docs/decisions/056). Looser than the name
 * rule, which also refuses any dot before two letters: notes say '17.00 uur' and towns 'St.Annaparochie'.
 */
export function textHasLink(text: string): boolean {
  const folded = text.normalize('NFKC');
  return SCHEME.test(folded) || EMAIL_IN_TEXT.test(folded) || WRAPPED_DOT_OR_IP.test(folded) || COMMON_HOST.test(folded);
}
