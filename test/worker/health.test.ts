import { SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { version } from '../../package.json';
import type { PlatformDb } from '../../src/db/client';
import { healthRoutes } from '../../src/features/health/health.routes';
import { SITE } from './sign-in';

/** docs/architecture.md §6 `GET /api/health` inside workerd: the Worker's database (D1, or Turso on worker-turso). */
describe('GET /api/health inside workerd', () => {
  it('answers ok with the version, public and not cached', async () => {
    const response = await SELF.fetch(`${SITE}/api/health`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toEqual({ ok: true, db: 'ok', version });
  });

  it('answers 503 when the database fails', async () => {
    const errors: string[] = [];
    const failing = { run: () => Promise.reject(new Error('D1_ERROR: Network connection lost.')) } as unknown as PlatformDb;
    const routes = healthRoutes({
      database: failing,
      log: { info: () => undefined, error: (message, fields) => errors.push(`${message} ${JSON.stringify(fields)}`) },
    });
    const response = await routes.request('/api/health');
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ ok: false, db: 'error', version });
    expect(errors).toEqual([expect.stringContaining('D1_ERROR: Network connection lost.')]);
  });
});
