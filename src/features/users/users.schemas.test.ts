import { describe, expect, it } from 'vitest';
import { editUserInputSchema, editUserSchema, userGroupSchema } from './users.schemas';

const messageOf = (schema: { safeParse(v: unknown): { error?: { issues: { message: string }[] } } }, input: unknown) =>
  schema.safeParse(input).error?.issues[0]?.message;

describe('userGroupSchema', () => {
  it('accepts ids as numbers or digit strings', () => {
    expect(userGroupSchema.parse({ user_id: 4, group_id: '2' })).toEqual({ user_id: 4, group_id: 2 });
  });

  it('names the field that is missing or wrong', () => {
    expect(messageOf(userGroupSchema, { group_id: 2 })).toBe('Invalid user_id');
    expect(messageOf(userGroupSchema, { user_id: 'abc', group_id: 2 })).toBe('Invalid user_id');
    expect(messageOf(userGroupSchema, { user_id: 2 })).toBe('Invalid group_id');
    expect(messageOf(userGroupSchema, { user_id: 2, group_id: -1 })).toBe('Invalid group_id');
  });
});

describe('editUserSchema (docs/product.md §7 edituser body)', () => {
  it('keeps what is sent and leaves out what is not', () => {
    expect(editUserSchema.parse({})).toEqual({});
    expect(editUserSchema.parse({ password: 'geheim123', status: 'inactive' })).toEqual({ password: 'geheim123', status: 'inactive' });
  });

  it('treats a null password or status as "leave it"', () => {
    expect(editUserSchema.parse({ password: null, status: null })).toEqual({ password: undefined, status: undefined });
  });

  it('turns an empty or null e-mail into null (no address) and trims one', () => {
    expect(editUserSchema.parse({ email: '' }).email).toBeNull();
    expect(editUserSchema.parse({ email: '   ' }).email).toBeNull();
    expect(editUserSchema.parse({ email: null }).email).toBeNull();
    expect(editUserSchema.parse({ email: ' a@b.nl ' }).email).toBe('a@b.nl');
  });

  it('refuses a wrong status, a password that is not text and an e-mail that is not text', () => {
    expect(messageOf(editUserSchema, { status: 'banned' })).toBe('Status must be active or inactive');
    expect(messageOf(editUserSchema, { status: true })).toBe('Status must be active or inactive');
    expect(messageOf(editUserSchema, { password: 123456 })).toBe('Password must be text');
    expect(messageOf(editUserSchema, { password: 'x'.repeat(257) })).toBe('Password must be at most 256 characters.');
    expect(messageOf(editUserSchema, { email: 5 })).toBe('Invalid email address');
  });

  it('takes the id beside the body for tRPC', () => {
    expect(editUserInputSchema.parse({ id: 3, status: 'active' })).toEqual({ id: 3, status: 'active' });
    expect(messageOf(editUserInputSchema, { status: 'active' })).toBe('Invalid id');
  });
});
