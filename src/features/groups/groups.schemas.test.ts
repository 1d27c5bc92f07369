import { describe, expect, it } from 'vitest';
import { addGroupSchema, groupPermissionsSchema } from './groups.schemas';

const messageOf = (schema: { safeParse(v: unknown): { error?: { issues: { message: string }[] } } }, input: unknown) =>
  schema.safeParse(input).error?.issues[0]?.message;

describe('addGroupSchema (docs/product.md §5 add group)', () => {
  it('trims the name and makes the description optional', () => {
    expect(addGroupSchema.parse({ name: '  Bestuur ' })).toEqual({ name: 'Bestuur', description: '' });
    expect(addGroupSchema.parse({ name: 'Bestuur', description: ' Het bestuur ' })).toEqual({ name: 'Bestuur', description: 'Het bestuur' });
  });

  it('asks for a name that is missing or blank after trimming', () => {
    for (const input of [{}, { name: '' }, { name: '   ' }, { name: null }]) expect(messageOf(addGroupSchema, input)).toBe('Group name is required');
  });

  it('refuses a name that is not text or too long', () => {
    expect(messageOf(addGroupSchema, { name: 12 })).toBe('Group name must be text');
    expect(messageOf(addGroupSchema, { name: 'x'.repeat(65) })).toBe('Group name is too long (at most 64 characters)');
  });
});

describe('groupPermissionsSchema (docs/product.md §4 group permissions as sets)', () => {
  it('accepts ids as numbers or digit strings and drops duplicates', () => {
    expect(groupPermissionsSchema.parse({ group_id: '3', permission_ids: [1, '2', 2, 1] })).toEqual({ group_id: 3, permission_ids: [1, 2] });
  });

  it('accepts an empty list', () => {
    expect(groupPermissionsSchema.parse({ group_id: 3, permission_ids: [] })).toEqual({ group_id: 3, permission_ids: [] });
  });

  it('refuses a bad group id or a bad list with a readable text', () => {
    expect(messageOf(groupPermissionsSchema, { permission_ids: [1] })).toBe('Invalid group_id');
    expect(messageOf(groupPermissionsSchema, { group_id: 'x', permission_ids: [1] })).toBe('Invalid group_id');
    for (const ids of [undefined, 'abc', 1, [0], ['x'], [1.5], [null]]) {
      expect(messageOf(groupPermissionsSchema, { group_id: 1, permission_ids: ids })).toBe('permission_ids must be a list of permission ids');
    }
    expect(messageOf(groupPermissionsSchema, { group_id: 1, permission_ids: Array.from({ length: 1001 }, (_, i) => i + 1) })).toBe(
      'permission_ids has too many items (at most 1000)',
    );
  });
});
