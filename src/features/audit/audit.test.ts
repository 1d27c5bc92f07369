import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, tablers } from '../../db/schema';
import { createTestApp, type TestApp } from '../../../test/support/test-app';
import { auditIfChanged } from './audit';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t.close();
});

describe('auditIfChanged', () => {
  it('writes the entry in the batch of a change that changed a row, and none after a change that changed nothing', async () => {
    const ctx = { db: t.db, clock: t.clock, ip: '10.9.9.9', user: { id: 1, username: 'admin' } };
    const now = t.clock.now().toISOString();
    await t.db.batch([
      t.db.insert(tablers).values({ name: 'Audit Tabler', createdAt: now, updatedAt: now }),
      auditIfChanged(ctx, { action: 'tabler.created', target: 'tabler (Audit Tabler)' }),
    ]);
    await t.db.batch([
      t.db.update(tablers).set({ name: 'Nobody' }).where(eq(tablers.name, 'No Such Tabler')),
      auditIfChanged(ctx, { action: 'tabler.updated', target: 'tabler (No Such Tabler)' }),
    ]);
    const entries = await t.db.select().from(auditLog).where(eq(auditLog.ip, '10.9.9.9'));
    expect(entries.map((e) => [e.action, e.actorId, e.actorUsername, e.target])).toEqual([['tabler.created', 1, 'admin', 'tabler (Audit Tabler)']]);
  });
});
