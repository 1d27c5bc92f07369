import { defineConfig } from 'vitest/config';

/**
 * Four suites (see README): unit (beside the code), api (Node app on libSQL), worker (inside workerd,
 * its own config in test/worker/vitest.config.ts) and e2e (Chromium against `npm start`'s server).
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: { name: 'unit', include: ['src/**/*.test.ts', 'web/**/*.test.ts'], environment: 'node' },
        resolve: { alias: { '@': new URL('./web', import.meta.url).pathname } },
      },
      {
        test: { name: 'api', include: ['test/api/**/*.test.ts'], environment: 'node', testTimeout: 20_000 },
      },
      'test/worker/vitest.config.ts',
      {
        test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'], environment: 'node', testTimeout: 60_000, hookTimeout: 120_000, fileParallelism: false },
      },
    ],
  },
});
