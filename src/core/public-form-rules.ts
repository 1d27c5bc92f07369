/**
 * The rules of the public order and contact forms, with the exact Dutch texts of docs/product.md §5: one module
 * for the server (its zod schemas, public-form-schemas.ts, and services) and the browser
 * (web/lib/public-forms.ts checks a form before it is sent). Pure functions and constants without
 * imports, so the public pages' JavaScript carries no zod. The order password step's rules live with
 * the tablers they match (features/tablers/tabler-gate.ts, import-free as well), which the browser
 * imports in the same way.
 */

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

export const INVALID_EMAIL_MESSAGE = 'Voer een geldig email adres in.';

/** A practical e-mail check: something@domain.tld, no spaces. */
export function isValidEmail(email: string): boolean {
  return email.length <= EMAIL_MAX_LENGTH && /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/.test(email);
}

/** docs/product.md §5 order form: the quantity is a whole number above 0. */
export const QUANTITY_MESSAGE = 'Aantal kerstpakketten is verplicht en moet groter dan 0 zijn.';

/**
 * issue 12 item 2: the name on an order is repeated in the club's confirmation mail, so it may not
 * carry a link or an e-mail address (a stranger could otherwise make the club mail a phishing text to
 * anyone).
 */
export const NAME_LINK_MESSAGE = 'Naam mag geen link of e-mailadres bevatten.';

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
