import { describe, expect, it } from 'vitest';
import { compareDeliveryAddresses } from './delivery-order';

describe('the driving order of a delivery list', () => {
  it('goes by postal code, then street, then house number as a number', () => {
    const stops = [
      { postalCode: '8862 AA', address: 'Achterstraat 1' },
      { postalCode: '8861 BJ', address: 'Voorstraat 10' },
      { postalCode: '8861BJ', address: 'Voorstraat 2a' },
      { postalCode: '8861 bj', address: 'voorstraat 2' },
      { postalCode: '8861 BJ', address: 'Grote Bredeplaats 3' },
      { postalCode: '8861 BJ', address: 'Voorstraatje 1' },
      { postalCode: '8861 AB', address: 'Zuiderhaven 40' },
    ];
    expect(stops.sort(compareDeliveryAddresses).map((s) => `${s.postalCode}|${s.address}`)).toEqual([
      '8861 AB|Zuiderhaven 40',
      '8861 BJ|Grote Bredeplaats 3',
      '8861 bj|voorstraat 2',
      '8861BJ|Voorstraat 2a',
      '8861 BJ|Voorstraat 10',
      '8861 BJ|Voorstraatje 1',
      '8862 AA|Achterstraat 1',
    ]);
  });
});
