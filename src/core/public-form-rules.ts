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

const SCHEME_OR_WWW = /[a-z][a-z0-9+.-]*:\/\/|\bwww\./i;
const EMAIL_IN_TEXT = /[^\s@]+@[^\s@]+\.[^\s@]+/;
// A bare domain ('example.com', 'bit.ly/x'): a word, a dot and a common top-level domain as a whole word.
const BARE_DOMAIN = /[\p{L}\d-]+\.(?:nl|com|net|org|eu|info|io|be|de|uk|fr|biz|app|site|online|xyz|top|link|click|me|co|ly|ru|cn|shop|store)(?![\p{L}\d])/iu;

export function nameHasLink(name: string): boolean {
  return SCHEME_OR_WWW.test(name) || EMAIL_IN_TEXT.test(name) || BARE_DOMAIN.test(name);
}
