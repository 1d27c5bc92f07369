import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateLimits, sessions } from '../../db/schema';
import { createSession, SESSION_TTL_MS } from '../auth/session';
import { createTestApp, type TestApp } from '../../../test/support/test-app';
import { housekeeping } from './housekeeping';
import { hitRateLimit } from '../../platform/rate-limit';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe('housekeeping', () => {
  it('drops expired sessions and ended rate-limit windows and keeps live ones', async () => {
    const admin = (await t.db.select().from(sessions)).length;
    await createSession(t.db, t.clock, 1);
    await hitRateLimit(t.db, t.clock, 'test:old', { limit: 5, windowMs: 60_000 });
    t.clock.advance(SESSION_TTL_MS + 1000);
    await createSession(t.db, t.clock, 1);
    await hitRateLimit(t.db, t.clock, 'test:new', { limit: 5, windowMs: 60_000 });
    await housekeeping(t.deps);
    expect((await t.db.select().from(sessions)).length).toBe(admin + 1);
    expect((await t.db.select().from(rateLimits)).map((r) => r.key)).toEqual(['test:new']);
  });
});
