import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app';

/** docs/architecture.md §6 `GET /api/health`: public, one statement, 503 when the database does not answer. */

const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };

let t: TestApp;
afterEach(async () => {
  await t.close();
});

describe('GET /api/health', () => {
  it('answers ok with the version to anyone, at the cost of one statement', async () => {
    t = await createTestApp();
    await t.deps.settingsCache.all(t.db);
    t.queries.reset();
    const answer = await t.request('/api/health');
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ ok: true, db: 'ok', version });
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(t.queries.statements).toEqual(['SELECT 1']);
    expect(t.errors).toEqual([]);
  });

  it('answers 503 when the database does not answer, and logs why', async () => {
    t = await createTestApp();
    await t.close();
    const answer = await t.request('/api/health');
    expect(answer.status).toBe(503);
    expect(answer.json).toEqual({ ok: false, db: 'error', version });
    expect(t.errors).toEqual([expect.stringContaining('Health check: the database does not answer')]);
    expect(t.errors[0]).toContain('CLIENT_CLOSED');
  });

  it('is under API_BASE_PATH with the rest of the REST surface', async () => {
    t = await createTestApp({ env: { API_BASE_PATH: '/backend' } });
    expect((await t.request('/backend/api/health')).json).toEqual({ ok: true, db: 'ok', version });
    expect((await t.request('/api/health')).status).toBe(404);
  });
});
