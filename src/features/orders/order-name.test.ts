import { describe, expect, it } from 'vitest';
import { nameHasLink } from './order-name';

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
    ]) {
      expect(nameHasLink(name), name).toBe(true);
    }
  });

  it('accepts the names people have, initials and accents included', () => {
    for (const name of ['Jan de Vries', 'J.P. van der Meer', 'Anne-Marie Ŝmit', 'Fam. Hoekstra', 'Dr. K. Bakker', "Ëlsa O'Neill", 'T.H.M. de Boer-Nauta']) {
      expect(nameHasLink(name), name).toBe(false);
    }
  });
});
