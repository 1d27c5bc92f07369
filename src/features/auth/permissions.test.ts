import { describe, expect, it } from 'vitest';
import { AppError } from '../../core/errors';
import { requireAdmin, requirePermission, requireUser } from './permissions';
import type { UserProfile } from './user-profile';

function userWith(...keys: string[]): UserProfile {
  return {
    id: 7,
    username: 'piet',
    email: null,
    status: 'active',
    deletable: true,
    created_at: '2026-11-22T10:00:00.000Z',
    updated_at: '2026-11-22T10:00:00.000Z',
    two_factor_enabled: false,
    locale: 'en',
    groups: [],
    permissions: keys.map((key) => ({ key })),
  };
}

function thrown(fn: () => unknown): AppError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error('Expected an AppError');
}

describe('requireUser, requirePermission and requireAdmin', () => {
  it('refuse nobody with AppError 401 "Not logged in"', () => {
    for (const guard of [() => requireUser({ user: null }), () => requirePermission({ user: null }, 'users.assign'), () => requireAdmin({ user: null })]) {
      const error = thrown(guard);
      expect(error.status).toBe(401);
      expect(error.message).toBe('Not logged in');
    }
  });

  it('refuse a user without the permission with AppError 403 "Forbidden"', () => {
    const user = userWith('premium.aiusage');
    for (const guard of [() => requirePermission({ user }, 'users.assign'), () => requireAdmin({ user })]) {
      const error = thrown(guard);
      expect(error.status).toBe(403);
      expect(error.message).toBe('Forbidden');
    }
  });

  it('return the user when the check passes', () => {
    const user = userWith('users.delete');
    expect(requireUser({ user })).toBe(user);
    expect(requirePermission({ user }, 'users.delete')).toBe(user);
    const admin = userWith('admin.access');
    expect(requireAdmin({ user: admin })).toBe(admin);
    expect(requirePermission({ user: admin }, 'settings.delete')).toBe(admin);
  });
});
