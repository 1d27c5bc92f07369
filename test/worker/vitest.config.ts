import { join } from 'node:path';
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin';
import { defineProject } from 'vitest/config';

const root = join(import.meta.dirname, '..', '..');

// The Worker entry inside workerd, with local D1 and R2 from wrangler.toml and the migrations of drizzle/.
export default defineProject(async () => {
  const migrations = await readD1Migrations(join(root, 'drizzle'));
  return {
    plugins: [
      cloudflareTest({
        wrangler: { configPath: join(root, 'wrangler.toml') },
        miniflare: {
          bindings: {
            TEST_MIGRATIONS: migrations,
            SECRET_KEY: 'a'.repeat(64),
            ADMIN_PASSWORD: 'worker-admin-password',
          },
        },
      }),
    ],
    test: {
      name: 'worker',
      include: [join(root, 'test/worker/**/*.test.ts')],
      setupFiles: [join(root, 'test/worker/apply-migrations.ts')],
      testTimeout: 30_000,
    },
  };
});
