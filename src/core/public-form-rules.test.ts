import { describe, expect, it } from 'vitest';
import {
  CONTACT_LABELS,
  dutchPostcode,
  isValidEmail,
  isValidPhone,
  nameHasLink,
  ORDER_LABELS,
  parseQuantity,
  QUANTITY_MESSAGE,
  QUANTITY_WHOLE_MESSAGE,
  requiredMessage,
  textHasLink,
  tooLongMessage,
} from './public-form-rules';

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

describe('the quantity rule', () => {
  it('reads whole numbers typed or sent', () => {
    for (const [value, quantity] of [
      ['1', 1],
      [' 12 ', 12],
      ['+3', 3],
      ['500', 500],
      ['501', 501],
      [25, 25],
    ] as const) {
      expect(parseQuantity(value), String(value)).toEqual({ quantity, error: null });
    }
  });

  it('refuses, never rewrites: fractions and letters are no whole number, nothing and negatives are not above 0', () => {
    for (const value of ['2.5', '2,5', '1e2', '0x10', 'abc', '3 stuks', '2.', 2.5, 0.5, -1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(parseQuantity(value), String(value)).toEqual({ quantity: null, error: QUANTITY_WHOLE_MESSAGE });
    }
    for (const value of ['', '   ', '0', '-3', '- 3', 0, -3]) {
      expect(parseQuantity(value), String(value)).toEqual({ quantity: null, error: QUANTITY_MESSAGE });
    }
    expect(QUANTITY_WHOLE_MESSAGE).toBe('Aantal kerstpakketten moet een heel getal zijn, zoals 1, 2 of 3.');
  });
});

describe('the postcode rule', () => {
  it('reads a Dutch postcode in any case and spacing as 1234 AB', () => {
    for (const text of ['8861 BM', '8861bm', ' 8861  bM ', '8861Bm']) expect(dutchPostcode(text), text).toBe('8861 BM');
    expect(dutchPostcode('1000 AA')).toBe('1000 AA');
  });

  it('refuses what is no Dutch postcode', () => {
    for (const text of ['ABCDE', '123', '0861 BM', '8861', '8861 B', '8861 BMX', '88611 BM', '8861-BM', 'D-26789', 'B-8000', '8861\nBM', '']) {
      expect(dutchPostcode(text), text).toBeNull();
    }
  });
});

describe('the phone rule', () => {
  it('accepts 10 to 15 digits with spaces, +, -, ( and )', () => {
    for (const text of [
      '0517123456',
      '0517 123456',
      '0517-123456',
      '06-12345678',
      '+31 6 1234 5678',
      '+31 (0)6-12345678',
      '+49 151 12345678',
      '123456789012345',
    ]) {
      expect(isValidPhone(text), text).toBe(true);
    }
  });

  it('refuses fewer than 10 or more than 15 digits, and any other character', () => {
    for (const text of ['123', '06', '051712345', '1234567890123456', 'bel me maar', '06.12.34.56.78', '0612345678 (na 17u)', '06/12345678', '']) {
      expect(isValidPhone(text), text).toBe(false);
    }
  });
});

describe('the link rule for free text in a mail', () => {
  it('finds what a mail program would make a link', () => {
    for (const text of [
      'Ga naar https://evil.example',
      'Kijk op www.prijs.nl',
      'mail info@club.nl',
      'Uw pakket: bank-check.com/track',
      'Bel tel:0900123',
      'Log in op mijnbank.nl',
      'server 192.168.1.10',
      'x[.]nl',
    ]) {
      expect(textHasLink(text), text).toBe(true);
    }
  });

  it('leaves times, abbreviations and town names alone', () => {
    for (const text of [
      'Graag na 17.00 uur bezorgen',
      'St.Annaparochie',
      'Bij de buren a.u.b.',
      'Voorstraat 12a',
      'i.v.m. vakantie 3.5 week weg',
      'Dhr. J.P. de Vries',
    ]) {
      expect(textHasLink(text), text).toBe(false);
    }
  });
});
