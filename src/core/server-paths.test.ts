import { describe, expect, it } from 'vitest';
import { isServerPath } from './server-paths';

describe('isServerPath', () => {
  it('gives tRPC and the REST surface to the server, and the pages with the same first word to the SPA', () => {
    for (const path of ['/trpc/settings.list', '/api/settings', '/tablers', '/tablers/create', '/orders', '/orders/export.csv', '/contact/send']) {
      expect(isServerPath(path, ''), path).toBe(true);
    }
    for (const path of ['/contact', '/order', '/api', '/apiary', '/ordersx', '/admin/management', '/trpc']) {
      expect(isServerPath(path, ''), path).toBe(false);
    }
  });

  it('finds the REST surface under API_BASE_PATH, and tRPC still at the root', () => {
    expect(isServerPath('/backend/orders', '/backend')).toBe(true);
    expect(isServerPath('/backend/api/users', '/backend')).toBe(true);
    expect(isServerPath('/orders', '/backend')).toBe(false);
    expect(isServerPath('/trpc/account.me', '/backend')).toBe(true);
  });
});
