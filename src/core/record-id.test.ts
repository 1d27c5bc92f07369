import { describe, expect, it } from 'vitest';
import { chunked, idSchema } from './record-id';

describe('idSchema (?id= of docs/product.md §7)', () => {
  it.each([
    [1, 1],
    ['12', 12],
    [' 7 ', 7],
    ['007', 7],
    [Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
  ])('accepts %j as the id %i', (input, expected) => {
    expect(idSchema.parse({ id: input })).toEqual({ id: expected });
  });

  it.each([[0], [-1], [1.5], ['abc'], [''], ['1e3'], ['0x10'], ['-3'], ['12abc'], [null], [undefined], [true], [2 ** 53], ['99999999999999999'], [[1]]])(
    'refuses %j with "Invalid id"',
    (input) => {
      const result = idSchema.safeParse({ id: input });
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toBe('Invalid id');
    },
  );

  it('refuses a body that is not an object with "Invalid id"', () => {
    for (const input of [null, [], 3, 'x']) expect(idSchema.safeParse(input).error?.issues[0]?.message).toBe('Invalid id');
  });
});

describe('chunked', () => {
  it('splits a list into pieces of at most the given size, in order', () => {
    expect(chunked([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(chunked([1, 2], 5)).toEqual([[1, 2]]);
    expect(chunked([], 3)).toEqual([]);
  });
});
