import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import '../../src/http/validate';
import { loginSchema } from '../../src/features/account/account.schemas';
import { ERROR_STATUS } from '../../src/core/error-codes';
import { issueRefusal, refusalText } from '../../src/core/input-issues';

/** Every non-test source file of the server but the catalogue, as one text. */
function serverSource(): string {
  const root = fileURLToPath(new URL('../../src', import.meta.url));
  const texts: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) && entry.name !== 'error-codes.ts') texts.push(readFileSync(path, 'utf8'));
    }
  };
  walk(root);
  return texts.join('\n');
}

const firstIssue = (schema: z.ZodType, input: unknown) => {
  const result = schema.safeParse(input);
  if (result.success) throw new Error('expected a refusal');
  return result.error.issues[0];
};

describe('the refusal codes (docs/decisions/062)', () => {
  it('are all in use: a code no refusal carries is removed from the catalogue', () => {
    const source = serverSource();
    expect(Object.keys(ERROR_STATUS).filter((code) => !source.includes(`'${code}'`))).toEqual([]);
  });

  it('name a schema failure by the rule it broke, with the field and the limit', () => {
    const schema = z.object({ name: z.string().max(3), tags: z.array(z.string()).min(1), kind: z.enum(['a', 'b']) });
    expect(issueRefusal(firstIssue(schema, { tags: ['x'], kind: 'a' }))).toEqual({
      code: 'FIELD_REQUIRED',
      message: 'name is required',
      extra: { field: 'name' },
    });
    expect(issueRefusal(firstIssue(schema, { name: 'long', tags: ['x'], kind: 'a' }))).toEqual({
      code: 'FIELD_TOO_LONG',
      message: 'name is too long (at most 3 characters)',
      extra: { field: 'name', maximum: 3 },
    });
    expect(issueRefusal(firstIssue(schema, { name: 'ab', tags: [], kind: 'a' })).code).toBe('FIELD_TOO_FEW');
    expect(issueRefusal(firstIssue(schema, { name: 'ab', tags: ['x'], kind: 'c' }))).toEqual({
      code: 'FIELD_NOT_ALLOWED',
      message: 'kind must be one of: a, b',
      extra: { field: 'kind', values: ['a', 'b'] },
    });
    expect(issueRefusal(undefined)).toEqual({ code: 'INVALID_INPUT', message: 'Invalid input', extra: {} });
  });

  it("give a schema's own text its own code where it has one", () => {
    // The login's length limit answers as a wrong password does: the same refusal, the same code.
    expect(issueRefusal(firstIssue(loginSchema, { username: 'x'.repeat(65), password: 'secret' }))).toEqual({
      code: 'INVALID_CREDENTIALS',
      message: 'Invalid username or password',
      extra: { field: 'username' },
    });
  });

  it('never give one text two codes', () => {
    expect(refusalText('INVALID_CREDENTIALS', 'Invalid username or password')).toBe('Invalid username or password');
    expect(() => refusalText('FORBIDDEN', 'Invalid username or password')).toThrow('already the text of INVALID_CREDENTIALS');
  });
});
