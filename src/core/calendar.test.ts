import { describe, expect, it } from 'vitest';
import { campaignYear } from './calendar';

/**
 * docs/architecture.md §3 order references KP-<year>-<nnnn>: the year is the campaign year in Dutch time
 * (Europe/Amsterdam: CET, UTC+1, in winter; CEST, UTC+2, in summer), not the UTC year.
 */

describe('campaignYear', () => {
  it('is the Dutch year in the middle of the campaign', () => {
    expect(campaignYear(new Date('2026-11-22T10:00:00.000Z'))).toBe(2026);
  });

  describe('around new year (winter time, UTC+1)', () => {
    it('is still the old year at 23:59:59.999 on 31 December in Amsterdam (22:59:59.999 UTC)', () => {
      expect(campaignYear(new Date('2026-12-31T22:59:59.999Z'))).toBe(2026);
    });

    it('is the new year from midnight in Amsterdam (23:00 UTC on 31 December)', () => {
      expect(campaignYear(new Date('2026-12-31T23:00:00.000Z'))).toBe(2027);
    });

    it('is the new year at 00:30 on 1 January in Amsterdam although UTC still says 31 December', () => {
      expect(campaignYear(new Date('2026-12-31T23:30:00.000Z'))).toBe(2027);
    });

    it('is the new year once UTC has caught up', () => {
      expect(campaignYear(new Date('2027-01-01T00:00:00.000Z'))).toBe(2027);
      expect(campaignYear(new Date('2027-01-01T12:00:00.000Z'))).toBe(2027);
    });

    it('handles other turns of the year the same way', () => {
      expect(campaignYear(new Date('2029-12-31T22:59:59.999Z'))).toBe(2029);
      expect(campaignYear(new Date('2029-12-31T23:00:00.000Z'))).toBe(2030);
    });
  });

  describe('in summer time (UTC+2)', () => {
    it('is the Dutch year in summer, two hours ahead of UTC', () => {
      expect(campaignYear(new Date('2026-07-01T12:00:00.000Z'))).toBe(2026);
      // 00:30 on 1 July in Amsterdam.
      expect(campaignYear(new Date('2026-06-30T22:30:00.000Z'))).toBe(2026);
    });

    it('does not move across the switches to and from summer time', () => {
      // 29 March 2026, 02:00 CET → 03:00 CEST (01:00 UTC); 25 October 2026, 03:00 CEST → 02:00 CET (01:00 UTC).
      for (const iso of ['2026-03-29T00:59:59.999Z', '2026-03-29T01:00:00.000Z', '2026-10-25T00:59:59.999Z', '2026-10-25T01:00:00.000Z']) {
        expect(campaignYear(new Date(iso)), iso).toBe(2026);
      }
    });
  });
});
