import { describe, expect, it } from 'vitest';
import { addPermissionSchema } from './permissions.schemas';

const messageOf = (input: unknown) => addPermissionSchema.safeParse(input).error?.issues[0]?.message;

describe('addPermissionSchema (docs/product.md §3, §5 add permission)', () => {
  it('trims the key and the description', () => {
    expect(addPermissionSchema.parse({ key: '  orders.export ', description: '  Export orders  ' })).toEqual({
      key: 'orders.export',
      description: 'Export orders',
    });
  });

  it('makes the description optional, as an empty text', () => {
    expect(addPermissionSchema.parse({ key: 'a.b' })).toEqual({ key: 'a.b', description: '' });
    expect(addPermissionSchema.parse({ key: 'a.b', description: null })).toEqual({ key: 'a.b', description: '' });
  });

  it.each(['users.assign', 'premium.aiusage', 'orders.send_invoice', 'app-versions.upload', 'a.b.c', 'x1.y2'])('accepts the prefix.action key %s', (key) => {
    expect(addPermissionSchema.safeParse({ key }).success).toBe(true);
  });

  it.each(['nodot', 'Users.assign', 'users.Assign', '.assign', 'users.', '1users.assign', 'users.1assign', 'us ers.assign', 'users..assign', 'é.x', 42])(
    'refuses %j with "Permission key must look like prefix.action"',
    (key) => {
      expect(messageOf({ key })).toBe('Permission key must look like prefix.action');
    },
  );

  it('asks for a key that is missing or blank', () => {
    for (const input of [{}, { key: '' }, { key: '   ' }, { key: null }]) expect(messageOf(input)).toBe('Permission key is required');
  });

  it('bounds the key and the description', () => {
    expect(messageOf({ key: `a.${'b'.repeat(63)}` })).toBe('Permission key is too long (at most 64 characters)');
    expect(messageOf({ key: 'a.b', description: 'x'.repeat(501) })).toBe('Description is too long (at most 500 characters)');
  });
});
