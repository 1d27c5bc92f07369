/**
 * issue 12 item 2: the name on an order is repeated in the club's confirmation mail, so it may not
 * carry a link or an e-mail address (a stranger could otherwise make the club mail a phishing text to
 * anyone). One rule for the server's schema and the browser form (web/lib/public-forms.ts).
 */
export const NAME_LINK_MESSAGE = 'Naam mag geen link of e-mailadres bevatten.';

const SCHEME_OR_WWW = /[a-z][a-z0-9+.-]*:\/\/|\bwww\./i;
const EMAIL = /[^\s@]+@[^\s@]+\.[^\s@]+/;
// A bare domain ('example.com', 'bit.ly/x'): a word, a dot and a common top-level domain as a whole word.
const BARE_DOMAIN = /[\p{L}\d-]+\.(?:nl|com|net|org|eu|info|io|be|de|uk|fr|biz|app|site|online|xyz|top|link|click|me|co|ly|ru|cn|shop|store)(?![\p{L}\d])/iu;

export function nameHasLink(name: string): boolean {
  return SCHEME_OR_WWW.test(name) || EMAIL.test(name) || BARE_DOMAIN.test(name);
}
