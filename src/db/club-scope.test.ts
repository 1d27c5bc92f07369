import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// docs/decisions/071: services reach rows only through the club's handle. The handle limits what it builds; these
// checks keep the two ways around it few and named: holding the whole database, and SQL text that names a table.

const SRC = join(process.cwd(), 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') && !path.endsWith('.test.ts') && !path.endsWith('.d.ts') ? [path] : [];
  });
}

const files = sourceFiles(SRC).map((path) => ({ name: relative(process.cwd(), path), text: readFileSync(path, 'utf8') }));

/** Who may hold the whole database, and why. */
const PLATFORM_HOLDERS: Record<string, string> = {
  'src/db/client.ts': 'the types',
  'src/db/club-db.ts': 'the handle itself',
  'src/db/d1.ts': 'opens the database',
  'src/db/libsql.ts': 'opens and migrates the database',
  'src/db/libsql-web.ts': 'opens the database',
  'src/context.ts': 'AppDeps carries it to the runtime entries, never to a request',
  'src/club-deps.ts': "makes each club's handle",
  'src/node.ts': 'the runtime entry',
  'src/platform/club-directory.ts': 'reads the clubs and their hosts',
  'src/features/clubs/clubs.service.ts': "the platform: makes clubs, counts every club's orders and users",
  'src/features/backups/node-backups.ts': 'a backup is the whole database',
  'src/features/backups/r2-backups.ts': 'a backup is the whole database',
  'src/features/backups/table-export.ts': 'a backup is the whole database',
  'src/features/health/health.routes.ts': 'SELECT 1 on the database, before any club',
  'src/features/health/health.service.ts': 'SELECT 1 on the database, before any club',
  'src/features/setup/prepare.ts': "the start: the key check, then the first club's seeding",
  'src/features/setup/secret-key.ts': "the key's fingerprint and what it encrypted, over every club",
};

/** SQL text that names a club's table (not through the handle), where the rows are the club's by construction. */
const RAW_TABLE_SQL: Record<string, string> = {
  'src/features/backups/table-export.ts': "a restore counts the kept order counts afresh, each club's from its own orders (GROUP BY club_id)",
  'src/features/auth/user-profile.ts': "the profile's groups, permissions and two-factor by the user's id, in a query from the club's users",
  'src/features/orders/order-search.ts': "tablers by name as a filter on the club's orders; and the start's check that every row has its search text",
  'src/features/payments/payments.service.ts':
    "bank entries of one import of the club, and their orders by id; other bookings compared within the entry's club",
  'src/features/setup/secret-key.ts': 'the deployment: is anything encrypted, in any club',
};

const CLUB_TABLES =
  'orders|users|groups|settings|tablers|sequences|sessions|audit_log|mail_outbox|rate_limits|bank_entries|payment_imports|online_payments|order_links|idempotency_keys|versions|permissions|user_groups|group_permissions|password_resets|recovery_codes|two_factor_secrets|contact_messages|provider_key_refusals|payment_reversals';
/** FROM/JOIN/INTO/UPDATE followed by an interpolated table or a club table's name, inside SQL text. */
const RAW_TABLE = new RegExp(`\\b(FROM|JOIN|INTO|UPDATE)\\s+(\\$\\{[A-Za-z]+\\}|"?(${CLUB_TABLES})\\b)`);

describe('the club handle is the only way to rows (docs/decisions/071)', () => {
  it('leaves the whole database to the files that run the deployment', () => {
    const holders = files.filter((file) => /\bPlatformDb\b|\bplatformDb\(|\bclubDb\(|\.database\b/.test(file.text)).map((file) => file.name);
    expect(holders.sort()).toEqual(Object.keys(PLATFORM_HOLDERS).sort());
  });

  it('names a table in SQL text only where the rows are the club’s by construction', () => {
    const naming = files
      .filter((file) => !file.name.startsWith('src/db/'))
      .filter((file) => file.text.split('\n').some((line) => !/^\s*(\/\/|\*)/.test(line) && RAW_TABLE.test(line)))
      .map((file) => file.name);
    expect(naming.sort()).toEqual(Object.keys(RAW_TABLE_SQL).sort());
  });
});
