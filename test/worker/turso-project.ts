import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { cloudflareTest } from '@cloudflare/vitest-plugin';
import { defineProject } from 'vitest/config';
import { wranglerAliases } from '../support/wrangler-aliases';
import { workerStandIns } from './stand-ins';

const root = join(import.meta.dirname, '..', '..');
const workerTests = join(root, 'test/worker');

/** The suites that go through the database (R2- and address-only files add nothing here), so the lane stays short. */
const TURSO_FILES = [
  'worker',
  'invoices',
  'payments',
  'mail',
  'turso-load',
  'delivery',
  'health',
  'secret-key',
  'user-mail',
  'online-payments',
  'seller-links',
  'order-idempotency',
  'journal',
];

/** Those that assert on whole tables keep a database of their own (as on D1: d1-project.ts). */
const TURSO_OWN_DATABASE_FILES = ['order-search', 'backups', 'orders-second-pass', 'clubs'];

/**
 * The Worker suites again, with the Worker on Turso over HTTP (TURSO_DATABASE_URL) instead of D1: the
 * database is the Hrana test server (test/support/hrana-server.ts) that turso-global-setup.ts starts
 * and migrates with `npm run db:migrate`. `ownDatabase`: a workerd and a copy of the migrated database per
 * file; otherwise one workerd and one database for the lane's files (docs/decisions/063).
 */
export function tursoProject(name: string, ownDatabase: boolean) {
  return defineProject(async () => {
    const standIns = await workerStandIns();
    return {
      resolve: { alias: wranglerAliases(root) },
      plugins: [
        // Called for every workerd the project starts: each gets a copy of the migrated database.
        cloudflareTest(({ inject }) => ({
          wrangler: { configPath: join(root, 'wrangler.toml') },
          main: join(workerTests, 'entry.ts'),
          miniflare: {
            bindings: {
              TURSO_DATABASE_URL: `${inject('hranaUrl')}/${randomUUID()}/`,
              ...standIns,
            },
          },
        })),
        {
          // The shared suites read and write their assertions through src/db/d1 on env.DB; here those go
          // to the Worker's Turso database (turso-db.ts). The Worker's own import of d1 is left alone.
          name: `${name}:assertions-on-turso`,
          enforce: 'pre',
          resolveId(source: string, importer: string | undefined) {
            if (importer?.startsWith(workerTests) && source.endsWith('/src/db/d1')) return join(workerTests, 'turso-db.ts');
            return null;
          },
        },
      ],
      test: {
        name,
        include: (ownDatabase ? TURSO_OWN_DATABASE_FILES : TURSO_FILES).map((file) => join(workerTests, `${file}.test.ts`)),
        globalSetup: [join(workerTests, 'turso-global-setup.ts')],
        isolate: ownDatabase,
        // CI runs this lane beside the browser tests at a lower priority (docs/decisions/063): a test may wait its turn.
        testTimeout: 120_000,
      },
    };
  });
}
