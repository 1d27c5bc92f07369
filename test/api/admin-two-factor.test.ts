import { decodeBase32IgnorePadding } from '@oslojs/encoding';
import { generateHOTP } from '@oslojs/otp';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { settings } from '../../src/db/schema';
import { createTestApp, type TestApp } from '../support/test-app';
import { expectFailure, transports } from '../support/transports';

/**
 * docs/architecture.md §5 `require_2fa_for_admins`: while it is on, a holder of admin.access without two-factor gets
 * 403 'Two-factor authentication is required for admins' on every admin call until 2FA is enabled;
 * `me` and the two-factor calls keep working, and `me` tells the SPA to send them to set it up.
 */

const REQUIRED = 'Two-factor authentication is required for admins';
const STEP_MS = 30_000;

type Op = 'me' | 'listUsers' | 'updateSetting' | 'setup' | 'verify' | 'createOrder';

let t: TestApp;

const both = transports<Op>(() => t, {
  rest: {
    me: ['GET', '/api/account/me'],
    listUsers: ['GET', '/api/users'],
    updateSetting: ['POST', '/api/settings/update'],
    setup: ['GET', '/api/twofactor/setup'],
    verify: ['POST', '/api/twofactor/verify'],
    createOrder: ['POST', '/orders/create'],
  },
  trpc: {
    me: ['query', 'account.me'],
    listUsers: ['query', 'users.list'],
    updateSetting: ['mutation', 'settings.update'],
    setup: ['mutation', 'twoFactor.setup'],
    verify: ['mutation', 'twoFactor.verify'],
    createOrder: ['mutation', 'orders.create'],
  },
});

function codeFor(secret: string): string {
  return generateHOTP(decodeBase32IgnorePadding(secret), BigInt(Math.floor(t.clock.now().getTime() / STEP_MS)), 6);
}

async function setRequirement(on: boolean) {
  await t.db
    .update(settings)
    .set({ value: String(on) })
    .where(eq(settings.key, 'require_2fa_for_admins'));
  t.deps.settingsCache.invalidate();
}

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t.close();
});

beforeEach(async () => {
  await setRequirement(false);
});

afterEach(() => {
  expect(t.errors).toEqual([]);
});

describe.each(both)('$name', (tr) => {
  const name = (base: string) => `${tr.p}_${base}`;

  /** Turns two-factor on for the signed-in user through the API. */
  async function enableTwoFactor(cookie: string) {
    const setup = await tr.call('setup', { cookie });
    expect(setup.status).toBe(200);
    const verify = await tr.call('verify', { cookie, body: { code: codeFor(setup.data.secret) } });
    expect(verify.status).toBe(200);
    t.clock.advance(STEP_MS);
  }

  it('leaves admins without two-factor alone while the setting is off', async () => {
    await t.createUser(name('off_admin'), ['Administrators']);
    const cookie = await t.cookieFor(name('off_admin'));
    expect((await tr.call('listUsers', { cookie })).status).toBe(200);
    const me = await tr.call('me', { cookie });
    expect(me.data.two_factor_setup_required).toBe(false);
  });

  it('refuses every admin call of an admin without two-factor, until they enable it', async () => {
    await t.createUser(name('new_admin'), ['Administrators']);
    const cookie = await t.cookieFor(name('new_admin'));
    await setRequirement(true);

    expectFailure(tr, await tr.call('listUsers', { cookie }), 403, REQUIRED);
    expectFailure(tr, await tr.call('updateSetting', { cookie, body: { key: 'club_town', value: 'Franeker' } }), 403, REQUIRED);
    const me = await tr.call('me', { cookie });
    expect(me.status).toBe(200);
    expect(me.data).toMatchObject({ loggedIn: true, two_factor_setup_required: true, user: { username: name('new_admin'), two_factor_enabled: false } });

    await enableTwoFactor(cookie);
    expect((await tr.call('listUsers', { cookie })).status).toBe(200);
    expect((await tr.call('me', { cookie })).data.two_factor_setup_required).toBe(false);
  });

  it('does not lend admin rights to the public order form while two-factor is missing', async () => {
    await t.createUser(name('order_admin'), ['Administrators']);
    const cookie = await t.cookieFor(name('order_admin'));
    await setRequirement(true);
    const order = {
      tabler_id: null,
      name: 'Jan de Vries',
      email: 'jan@example.nl',
      phone: '0612345678',
      address: 'Voorstraat 2',
      postal_code: '8861 BK',
      city: 'Harlingen',
      amount: 2,
      paid: true,
    };
    // As an admin this order (no tabler, paid) would be accepted; as a visitor it needs a tabler.
    expectFailure(tr, await tr.call('createOrder', { cookie, body: order }), 400, 'Kies eerst een tabler.');
  });

  it('can be switched on only by an admin whose own two-factor is on', async () => {
    await t.createUser(name('switcher'), ['Administrators']);
    const cookie = await t.cookieFor(name('switcher'));
    expectFailure(
      tr,
      await tr.call('updateSetting', { cookie, body: { key: 'require_2fa_for_admins', value: true } }),
      409,
      'Turn on two-factor authentication for your own account before requiring it for admins.',
    );
    await enableTwoFactor(cookie);
    expect((await tr.call('updateSetting', { cookie, body: { key: 'require_2fa_for_admins', value: true } })).status).toBe(200);
    expect((await tr.call('updateSetting', { cookie, body: { key: 'require_2fa_for_admins', value: false } })).status).toBe(200);
  });

  it('keeps plain users at Forbidden, and tells them nothing about two-factor', async () => {
    await t.createUser(name('member'));
    const cookie = await t.cookieFor(name('member'));
    await setRequirement(true);
    expectFailure(tr, await tr.call('listUsers', { cookie }), 403, 'Forbidden');
    expect((await tr.call('me', { cookie })).data.two_factor_setup_required).toBe(false);
  });
});
