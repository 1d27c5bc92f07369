import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { cloudflareTest } from '@cloudflare/vitest-plugin';
import { defineProject } from 'vitest/config';
import { startFakeMollie } from '../support/fake-mollie';
import { startMailSinkWithHttp } from '../support/mail-sink-http';
import { wranglerAliases } from '../support/wrangler-aliases';

const root = join(import.meta.dirname, '..', '..');
const workerTests = join(root, 'test/worker');

/**
 * The Worker suites again, with the Worker on Turso over HTTP (TURSO_DATABASE_URL) instead of D1: the
 * database is the Hrana test server (test/support/hrana-server.ts) that turso-global-setup.ts starts
 * and migrates with `npm run db:migrate`.
 */
export default defineProject(async () => {
  const mailSink = await startMailSinkWithHttp();
  // Mollie's Payments API as a stand-in on loopback (docs/decisions/066); the tests drive it through its side door.
  const mollie = await startFakeMollie();
  return {
    resolve: { alias: wranglerAliases(root) },
    plugins: [
      // Called for every test file's workerd: each gets a database of its own, a copy of the migrated one,
      // as each gets a fresh D1 on the D1 project.
      cloudflareTest(({ inject }) => ({
        wrangler: { configPath: join(root, 'wrangler.toml') },
        main: join(root, 'test/worker/entry.ts'),
        miniflare: {
          bindings: {
            TURSO_DATABASE_URL: `${inject('hranaUrl')}/${randomUUID()}/`,
            SECRET_KEY: 'a'.repeat(64),
            PUBLIC_URL: 'https://kerst.example',
            ADMIN_PASSWORD: 'worker-admin-password',
            SMTP_URL: mailSink.smtp.url,
            MAIL_SINK_URL: mailSink.httpUrl,
            MOLLIE_API_URL: mollie.url,
            MOLLIE_CONTROL_URL: mollie.controlUrl,
          },
        },
      })),
      {
        // The shared suites read and write their assertions through src/db/d1 on env.DB; here those go
        // to the Worker's Turso database (turso-db.ts). The Worker's own import of d1 is left alone.
        name: 'worker-turso:assertions-on-turso',
        enforce: 'pre',
        resolveId(source, importer) {
          if (importer?.startsWith(workerTests) && source.endsWith('/src/db/d1')) return join(workerTests, 'turso-db.ts');
          return null;
        },
      },
    ],
    test: {
      name: 'worker-turso',
      // The suites that go through the database (R2- and address-only files add nothing here), so it stays short.
      include: [
        'worker',
        'invoices',
        'payments',
        'mail',
        'order-search',
        'turso-load',
        'delivery',
        'backups',
        'health',
        'secret-key',
        'orders-second-pass',
        'user-mail',
        'online-payments',
      ].map((name) => join(workerTests, `${name}.test.ts`)),
      globalSetup: [join(workerTests, 'turso-global-setup.ts')],
      // CI runs this lane beside the browser tests at a lower priority (docs/decisions/063): a test may wait its turn.
      testTimeout: 60_000,
    },
  };
});
