import * as z from 'zod';

/**
 * A row id as clients send it: a number in a JSON body, or text in a query string (`?id=12`).
 * Anything but a positive safe integer is refused with `message`, never passed on to the database.
 */
export function recordId(message: string) {
  return z.union([z.number(), z.string()], { error: message }).transform((value, ctx) => {
    const n = typeof value === 'number' ? value : /^\s*\d{1,16}\s*$/.test(value) ? Number(value.trim()) : Number.NaN;
    if (!Number.isSafeInteger(n) || n < 1) {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
    return n;
  });
}

/** `?id=` of the specification's calls (docs/product.md §7), and `{id}` of their tRPC twins. */
export const idSchema = z.object({ id: recordId('Invalid id') }, { error: 'Invalid id' });

/** Splits a list into pieces of at most `size`: D1 allows at most 100 bound values per statement. */
export function chunked<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
