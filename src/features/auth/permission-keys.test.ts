import { describe, expect, it } from 'vitest';
import { hasPermission, type PermissionKey, PERMISSIONS } from './permission-keys';

const withKeys = (...keys: string[]) => ({ permissions: keys.map((key) => ({ key })) });

describe('hasPermission (docs/product.md §6)', () => {
  it('is true when the list holds an entry with that key', () => {
    expect(hasPermission(withKeys('users.assign'), 'users.assign')).toBe(true);
  });

  it('is false when the list lacks the key', () => {
    expect(hasPermission(withKeys('users.assign'), 'users.delete')).toBe(false);
    expect(hasPermission(withKeys(), 'premium.aiusage')).toBe(false);
  });

  it('matches whole keys only, never a prefix or another case', () => {
    expect(hasPermission(withKeys('users'), 'users.assign')).toBe(false);
    expect(hasPermission(withKeys('users.assign.extra'), 'users.assign')).toBe(false);
    expect(hasPermission(withKeys('Users.Assign'), 'users.assign')).toBe(false);
  });

  it('lets a holder of admin.access pass every check', () => {
    const admin = withKeys(PERMISSIONS.adminAccess);
    for (const key of ['premium.aiusage', 'users.assign', 'users.delete', 'settings.delete', 'anything.else'] as PermissionKey[]) {
      expect(hasPermission(admin, key)).toBe(true);
    }
  });

  it('gives no permissions to no user', () => {
    expect(hasPermission(null, 'admin.access')).toBe(false);
    expect(hasPermission(undefined, 'users.assign')).toBe(false);
  });

  it('gives no permissions to a user without a permission list', () => {
    expect(hasPermission({ permissions: undefined }, 'users.assign')).toBe(false);
    expect(hasPermission({ permissions: null }, 'admin.access')).toBe(false);
  });

  it('gives no permissions for an empty or missing list', () => {
    expect(hasPermission({}, 'admin.access')).toBe(false);
    expect(hasPermission({ permissions: [] }, 'admin.access')).toBe(false);
  });

  it('matches keys exactly, not by prefix', () => {
    expect(hasPermission(withKeys('admin.accessory'), 'users.delete')).toBe(false);
    expect(hasPermission(withKeys('users.assign'), 'users' as PermissionKey)).toBe(false);
  });
});
