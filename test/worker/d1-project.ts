import { join } from 'node:path';
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin';
import { defineProject } from 'vitest/config';
import { wranglerAliases } from '../support/wrangler-aliases';
import { workerStandIns } from './stand-ins';

const root = join(import.meta.dirname, '..', '..');
const workerTests = join(root, 'test/worker');

/**
 * The files that need a D1 of their own: they assert on the whole of a table (a search's every match, a restore
 * of every table, an export's every row). The other files share one workerd and one D1 (docs/decisions/063).
 */
export const OWN_DATABASE_FILES = ['order-search', 'backups', 'orders-second-pass', 'clubs'].map((name) => join(workerTests, `${name}.test.ts`));

/** The Worker entry inside workerd, with local D1 and R2 from wrangler.toml and the migrations of drizzle/. */
export function d1Project(name: string, files: { include: string[]; exclude: string[]; isolate: boolean }) {
  return defineProject(async () => {
    const migrations = await readD1Migrations(join(root, 'drizzle'));
    const standIns = await workerStandIns();
    return {
      resolve: { alias: wranglerAliases(root) },
      plugins: [
        cloudflareTest({
          wrangler: { configPath: join(root, 'wrangler.toml') },
          main: join(workerTests, 'entry.ts'),
          miniflare: {
            bindings: {
              TEST_MIGRATIONS: migrations,
              ...standIns,
            },
          },
        }),
      ],
      test: {
        name,
        include: files.include,
        exclude: files.exclude,
        setupFiles: [join(workerTests, 'apply-migrations.ts')],
        // One workerd for the whole lane instead of one per file (docs/decisions/063): 150 s → 70 s of the lane.
        isolate: files.isolate,
        // CI runs this lane beside the browser tests at a lower priority (docs/decisions/063): a test may wait its turn
        // (the invoices test, 3-7 s alone, took over 60 s once while the browser lane was busy).
        testTimeout: 120_000,
      },
    };
  });
}
