import { PERMISSIONS } from '../../src/features/auth/permission-keys';
import type { UserProfile } from '../../src/features/auth/user-profile';

/**
 * An admin as a session loaded before they lost admin.access carries them: they pass the admin guard, but no row
 * or group stands behind them any more, so only the rules inside the statements protect the site.
 */
export function staleAdminProfile(username: string): UserProfile {
  return {
    id: 999_999,
    username,
    email: null,
    status: 'active',
    deletable: true,
    created_at: '',
    updated_at: '',
    two_factor_enabled: false,
    locale: 'en',
    groups: [],
    permissions: [{ key: PERMISSIONS.adminAccess }],
  };
}
