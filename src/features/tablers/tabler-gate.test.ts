import { describe, expect, it } from 'vitest';
import { findGateMatch, GATE_MESSAGES, gateInputProblem, namesMatch, normaliseGateText } from './tabler-gate';

/** docs/product.md §5 order password step: the 'password' is a tabler's name (docs/architecture.md §3 tabler match). */

describe('gateInputProblem', () => {
  it('uses the exact Dutch texts of docs/product.md §5', () => {
    expect(GATE_MESSAGES).toEqual({
      empty: 'Voer het wachtwoord in.',
      tooShort: 'Wachtwoord moet minimaal 3 karakters bevatten.',
      noLetters: 'Wachtwoord moet letters bevatten.',
      noMatch: 'Onjuist wachtwoord. Probeer opnieuw.',
    });
  });

  it.each(['', ' ', '   ', '\t\n'])('asks for the password when the input is empty or only whitespace (%j)', (input) => {
    expect(gateInputProblem(input)).toBe(GATE_MESSAGES.empty);
  });

  it.each(['a', 'ab', 'a b', '  a  b  ', 'a1'])('refuses fewer than 3 characters, whitespace not counted (%j)', (input) => {
    expect(gateInputProblem(input)).toBe(GATE_MESSAGES.tooShort);
  });

  it('checks the length before the letters: a short input without letters is too short', () => {
    expect(gateInputProblem('12')).toBe(GATE_MESSAGES.tooShort);
    expect(gateInputProblem('1 2')).toBe(GATE_MESSAGES.tooShort);
  });

  it.each(['1234', '12 34', '!!!', '123-456', '...'])('refuses an input without any letter (%j)', (input) => {
    expect(gateInputProblem(input)).toBe(GATE_MESSAGES.noLetters);
  });

  it.each(['abc', 'Jan', 'jan jansen', '12a', 'Één', 'Zoë', 'a b c'])('accepts an input of 3 or more characters with a letter (%j)', (input) => {
    expect(gateInputProblem(input)).toBeNull();
  });
});

describe('normaliseGateText', () => {
  it('lower-cases and removes all whitespace', () => {
    expect(normaliseGateText('Jan Jansen')).toBe('janjansen');
    expect(normaliseGateText('  JAN\tJan\nSEN  ')).toBe('janjansen');
    expect(normaliseGateText('Jan\u00a0Jansen')).toBe('janjansen');
  });

  it('keeps everything that is not whitespace', () => {
    expect(normaliseGateText("Jan-Pieter d'Hondt")).toBe("jan-pieterd'hondt");
  });
});

describe('namesMatch', () => {
  it('matches the same name regardless of case and whitespace', () => {
    expect(namesMatch('jan jansen', 'Jan Jansen')).toBe(true);
    expect(namesMatch('JANJANSEN', 'Jan Jansen')).toBe(true);
  });

  it('matches when the input is part of the name', () => {
    expect(namesMatch('JANSEN', 'Jan Jansen')).toBe(true);
    expect(namesMatch('n jan', 'Jan Jansen')).toBe(true);
  });

  it('matches when the name is part of the input', () => {
    expect(namesMatch('Jan Jansen uit Harlingen', 'Jan Jansen')).toBe(true);
  });

  it('is symmetric', () => {
    expect(namesMatch('Jan Jansen', 'jansen')).toBe(true);
    expect(namesMatch('Jan Jansen', 'Jan Jansen uit Harlingen')).toBe(true);
  });

  it('does not match unrelated names', () => {
    expect(namesMatch('Piet', 'Jan Jansen')).toBe(false);
    expect(namesMatch('jansen x', 'Jan Jansen')).toBe(false);
  });

  it('never matches an empty or whitespace-only side', () => {
    expect(namesMatch('', 'Jan')).toBe(false);
    expect(namesMatch('   ', 'Jan')).toBe(false);
    expect(namesMatch('Jan', '')).toBe(false);
    expect(namesMatch('', '')).toBe(false);
  });
});

describe('findGateMatch', () => {
  const jan = { id: 1, name: 'Jan Jansen' };
  const piet = { id: 2, name: 'Piet Jansen' };
  const janShort = { id: 3, name: 'Jan' };
  const klaas = { id: 4, name: 'Klaas de Vries' };

  it('finds nothing among no tablers', () => {
    expect(findGateMatch('Jan Jansen', [])).toBeNull();
  });

  it('finds the tabler whose name equals the input after normalising', () => {
    expect(findGateMatch('jan jansen', [jan, klaas])).toBe(jan);
    expect(findGateMatch('  KLAASDEVRIES ', [jan, klaas])).toBe(klaas);
  });

  it('finds the only tabler that contains the input, or that the input contains', () => {
    expect(findGateMatch('vries', [jan, klaas])).toBe(klaas);
    expect(findGateMatch('Klaas de Vries, Harlingen', [jan, klaas])).toBe(klaas);
  });

  it('prefers an exact match over containment, whichever comes first in the list', () => {
    // 'jan' is contained in 'Jan Jansen' too, but equals 'Jan'.
    expect(findGateMatch('jan', [jan, janShort])).toBe(janShort);
    expect(findGateMatch('jan', [janShort, jan])).toBe(janShort);
    // 'Jan Jansen' contains 'Jan', but equals 'Jan Jansen'.
    expect(findGateMatch('Jan Jansen', [janShort, jan])).toBe(jan);
  });

  it('refuses an ambiguous containment: two candidates and no exact match give no match', () => {
    expect(findGateMatch('jansen', [jan, piet])).toBeNull();
    expect(findGateMatch('Jan Jansen en Piet Jansen', [jan, piet])).toBeNull();
  });

  it('finds nothing when no name is related to the input', () => {
    expect(findGateMatch('Willem', [jan, piet, klaas])).toBeNull();
  });

  it('returns the caller’s own object, extra fields included', () => {
    const rows = [{ id: 9, name: 'Sjoerd', extra: 'x' }];
    expect(findGateMatch('sjoerd', rows)).toBe(rows[0]);
  });
});
