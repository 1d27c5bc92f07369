import { defineConfig } from 'vitest/config';

/**
 * Five suites (see README): unit (beside the code), api (Node app on libSQL), worker (inside workerd on D1,
 * its own config in test/worker/vitest.config.ts), worker-turso (the same on Turso over HTTP,
 * test/worker/vitest.turso.config.ts) and e2e (Chromium against `npm start`'s server).
 */
// docs/decisions/063: the unit and api files share worker threads and their imported modules instead of each loading
// the whole app again (import was ~75% of their time); each file still builds its own app, database and clock.
const shared = { pool: 'threads', isolate: false } as const;

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'web/**/*.test.ts', 'test/support/**/*.test.ts'],
          environment: 'node',
          // CI runs this suite beside the browser and workerd ones on 2 cores: a second of work can take several.
          testTimeout: 20_000,
          setupFiles: ['test/support/node-pdf-fonts.ts'],
          ...shared,
        },
        resolve: { alias: { '@': new URL('./web', import.meta.url).pathname } },
      },
      {
        test: {
          name: 'api',
          include: ['test/api/**/*.test.ts'],
          environment: 'node',
          testTimeout: 40_000,
          setupFiles: ['test/support/node-pdf-fonts.ts'],
          ...shared,
        },
      },
      'test/worker/vitest.config.ts',
      'test/worker/vitest.own-db.config.ts',
      'test/worker/vitest.turso.config.ts',
      'test/worker/vitest.turso-own-db.config.ts',
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          // One process for every file (docs/decisions/063): 50 s → 40 s of CPU on three files; each still starts its own server and Chromium.
          isolate: false,
          // A page waits on a server and lazy chunks: on a loaded 2-core machine one second (the default) is short.
          expect: { poll: { timeout: 10_000 } },
        },
      },
    ],
  },
});
