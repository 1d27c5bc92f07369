import { describe, expect, it } from 'vitest';
import { CONTACT_LABELS, isValidEmail, nameHasLink, ORDER_LABELS, requiredMessage, tooLongMessage } from './public-form-rules';

describe('the order name rule', () => {
  it('refuses links, bare domains and e-mail addresses', () => {
    for (const name of [
      'Uw account is geblokkeerd, ga naar https://evil.example',
      'Piet http://x.nl',
      'Klik www.winnen.nl',
      'Ga naar bank-check.com nu',
      'bit.ly/abc',
      'Mail info@club.nl',
      'HXXPS: see hxxps://a.b',
      'Jan www x',
      'Ga naar rabobank-veilig.support',
      'Piet mijnbank.com/login',
      'Klant rabo\u3002nl',
      'Klant rabo\uFF0Enl',
      '\uFF57\uFF57\uFF57\uFF0E\uFF58\uFF0E\uFF4E\uFF4C',
      'Bel 10.0.0.1',
      'Ga naar 192.168.10.20',
      'x[.]nl',
      'Zie http nu',
      'javascript:alert(1)',
    ]) {
      expect(nameHasLink(name), name).toBe(true);
    }
  });

  it('accepts the names people have, initials and accents included', () => {
    for (const name of [
      'Jan de Vries',
      'J.P. van der Meer',
      'Anne-Marie Ŝmit',
      'Fam. Hoekstra',
      'Dr. K. Bakker',
      "Ëlsa O'Neill",
      'T.H.M. de Boer-Nauta',
      'A. van Dijk',
      'v.d. Berg',
      'Jan-Willem 2e',
      'Bakkerij De Zon B.V.',
    ]) {
      expect(nameHasLink(name), name).toBe(false);
    }
  });
});

describe('the e-mail rule', () => {
  it('accepts something@domain.tld without spaces, up to 254 characters', () => {
    for (const email of ['a@b.nl', 'naam.achternaam@bedrijf.example.com', `${'a'.repeat(246)}@club.nl`]) {
      expect(isValidEmail(email), email).toBe(true);
    }
    for (const email of ['a@b.c', 'a b@c.nl', 'x@y', '@b.nl', 'anna@', `${'a'.repeat(247)}@club.nl`]) {
      expect(isValidEmail(email), email).toBe(false);
    }
  });
});

describe('the texts of docs/product.md §5', () => {
  it('name the field that is missing or too long', () => {
    expect(requiredMessage(ORDER_LABELS.postalCode)).toBe('Postcode is verplicht.');
    expect(tooLongMessage(CONTACT_LABELS.subject, 200)).toBe('Onderwerp is te lang (maximaal 200 tekens).');
  });
});
