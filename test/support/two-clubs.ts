import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { asClubId, clubDb } from '../../src/db/club-db';
import { mailOutbox } from '../../src/db/schema';
import { ADMIN_PASSWORD, createTestApp, type TestAppOptions } from './test-app';

/** Club B's host in the two-club fixture; club A is the first club, on the test's default host. */
export const CLUB_B_HOST = 'b.club.test';
export const CLUB_B_PASSWORD = 'club-b-admin-password';

/**
 * docs/decisions/071: a deployment with two clubs. A is the first club (its admin `admin` holds platform.access);
 * B is made through POST /api/platform/clubs on its own host, and its admin `admin` has set a password through the
 * link of B's invitation mail. `asA`/`asB` send a request on that club's host.
 */
export async function createTwoClubs(options: TestAppOptions = {}) {
  const t = await createTestApp(options);
  const adminA = await t.cookieFor('admin');
  const created = await t.request('/api/platform/clubs', {
    cookie: adminA,
    body: { name: 'Ronde Tafel 99 Sneek', slug: 'sneek', hosts: [CLUB_B_HOST], admin_email: 'beheer@sneek.example' },
  });
  expect(created.status, created.text).toBe(200);
  const clubB = created.json.club_id as number;
  const dbB = clubDb(t.database, asClubId(clubB));
  const [invite] = await dbB.select().from(mailOutbox).where(eq(mailOutbox.toAddress, 'beheer@sneek.example'));
  const token = /reset-password\?token=([A-Za-z0-9_-]+)/.exec(invite!.textBody)![1]!;
  const reset = await t.request('/api/account/reset', { host: CLUB_B_HOST, body: { token, new_password: CLUB_B_PASSWORD } });
  expect(reset.status, reset.text).toBe(200);
  const login = await t.request('/api/account/login', { host: CLUB_B_HOST, body: { username: 'admin', password: CLUB_B_PASSWORD } });
  expect(login.status, login.text).toBe(200);
  const adminB = login.headers.get('set-cookie')!.split(';')[0]!;
  type Init = Parameters<typeof t.request>[1];
  return {
    ...t,
    clubB,
    dbB,
    adminA,
    adminB,
    adminAPassword: ADMIN_PASSWORD,
    asA: (path: string, init: Init = {}) => t.request(path, { cookie: adminA, ...init }),
    asB: (path: string, init: Init = {}) => t.request(path, { cookie: adminB, ...init, host: CLUB_B_HOST }),
  };
}

export type TwoClubs = Awaited<ReturnType<typeof createTwoClubs>>;
