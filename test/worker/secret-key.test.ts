import { createExecutionContext, createScheduledController, env, SELF, waitOnExecutionContext } from 'cloudflare:test';
import { clubDb, FIRST_CLUB_ID } from '../../src/db/club-db';
import { eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { openD1Db } from '../../src/db/d1';
import { instanceMeta, mailOutbox } from '../../src/db/schema';
import { KEY_FINGERPRINT, secretKeyFingerprint, WRONG_SECRET_KEY } from '../../src/features/setup/secret-key';
import { SITE } from './sign-in';

const bindings = env as unknown as { DB: Parameters<typeof openD1Db>[0]; SECRET_KEY: string };
const apks = (env as unknown as { APKS: { list: (o: { prefix: string }) => Promise<{ objects: unknown[] }> } }).APKS;

/**
 * docs/decisions/050 inside workerd: the Worker's first request records the fingerprint of SECRET_KEY in D1, and
 * an isolate started with another SECRET_KEY (a secret changed, or D1 restored from another deployment)
 * answers 503 and logs one line naming SECRET_KEY, instead of a 500 at every 2FA sign-in.
 */
describe('the secret key on the Worker', () => {
  it('records the key’s fingerprint, and refuses another key with 503 and one log line', async () => {
    expect((await SELF.fetch(`${SITE}/api/settings`)).status).toBe(200);
    const db = openD1Db(bindings.DB);
    const [row] = await db.select().from(instanceMeta).where(eq(instanceMeta.name, KEY_FINGERPRINT));
    expect(row?.value).toBe(await secretKeyFingerprint(bindings.SECRET_KEY));

    // A fresh isolate (a new module instance) whose SECRET_KEY is not the one D1 was encrypted with.
    vi.resetModules();
    const { default: worker } = await import('../../src/worker');
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const response = await worker.fetch(
        new Request(`${SITE}/api/settings`),
        { ...env, SECRET_KEY: 'b'.repeat(64) } as never,
        createExecutionContext() as never,
      );
      expect(response.status).toBe(503);
      expect(await response.json()).toMatchObject({ success: false, error: 'Server misconfigured', code: 'SERVER_MISCONFIGURED' });
      expect(logged.mock.calls.map((call) => call[0])).toEqual([WRONG_SECRET_KEY]);
    } finally {
      logged.mockRestore();
    }
    // The database is left as it was: the fingerprint is still the right key's.
    const [after] = await db.select().from(instanceMeta).where(eq(instanceMeta.name, KEY_FINGERPRINT));
    expect(after?.value).toBe(row?.value);
  });

  it('runs no cron work under another key: the queued mail stays queued and no backup is made', async () => {
    // A fresh isolate with the right key seeds this test's database and records the fingerprint.
    vi.resetModules();
    const { default: rightKey } = await import('../../src/worker');
    expect((await rightKey.fetch(new Request(`${SITE}/api/settings`), env as never, createExecutionContext() as never)).status).toBe(200);
    const db = clubDb(openD1Db(bindings.DB), FIRST_CLUB_ID);
    // The lane's files share one D1 and R2 (docs/decisions/063): this test looks at its own mail and at backups made now.
    const backupsBefore = (await apks.list({ prefix: 'backups/' })).objects.length;
    const [queued] = await db
      .insert(mailOutbox)
      .values({
        kind: 'test',
        toAddress: 'klant@example.nl',
        subject: 'Wacht',
        textBody: 'Wacht op de cron',
        nextAttemptAt: 0,
        createdAt: new Date().toISOString(),
      })
      .returning({ id: mailOutbox.id });

    vi.resetModules();
    const { default: worker } = await import('../../src/worker');
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const ctx = createExecutionContext();
      await worker.scheduled(
        createScheduledController() as never,
        { ...env, SECRET_KEY: 'b'.repeat(64), SMTP_URL: 'smtp://127.0.0.1:1' } as never,
        ctx as never,
      );
      await waitOnExecutionContext(ctx);
      expect(logged.mock.calls.map((call) => call[0])).toEqual([WRONG_SECRET_KEY]);
    } finally {
      logged.mockRestore();
    }
    const mail = await db.select({ status: mailOutbox.status, attempts: mailOutbox.attempts }).from(mailOutbox).where(eq(mailOutbox.id, queued!.id));
    expect(mail).toEqual([{ status: 'queued', attempts: 0 }]);
    expect((await apks.list({ prefix: 'backups/' })).objects).toHaveLength(backupsBefore);
  });
});
