import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { migrateLibsqlDb, openLibsqlDb } from '../../db/libsql';
import { parseConfig } from '../../env';
import { systemClock } from '../../platform/clock';
import { makeBackup } from './backups.service';
import { ARCHIVE_KEY, assertDatabaseNotInUse, createNodeBackupStore, keepRowsAside, nodeDatabaseFile, restoreNodeBackup } from './node-backups';
import { importTables, inlined, parseExport, restoreStatements } from './table-export';

/**
 * `npm run backup` and `npm run restore -- <file>` (docs/decisions/051), run by scripts/backup.mjs and
 * scripts/restore.mjs with the server's configuration (.env and the environment). Each answers an exit code.
 */

type Env = Record<string, string | undefined>;

/** The same backup as the admin area's button, from another process: the server may go on running (WAL, docs/decisions/052). */
export async function backupCommand(env: Env): Promise<number> {
  const config = parseConfig(env);
  const file = nodeDatabaseFile(config);
  const keyFile = join(config.dataDir, ARCHIVE_KEY);
  const secretKey = config.secretKey ?? (existsSync(keyFile) ? (await readFile(keyFile, 'utf8')).trim() : null);
  if (!secretKey) {
    console.error(`No secret key: neither SECRET_KEY nor ${keyFile}. Start the server once first.`);
    return 1;
  }
  if (file !== null && !existsSync(file)) {
    console.error(`No database at ${file}: start the server once first.`);
    return 1;
  }
  const { db, client } = openLibsqlDb(config.databaseUrl ?? `file:${file}`, config.databaseAuthToken);
  try {
    const backups = createNodeBackupStore({ dataDir: config.dataDir, file, db, secretKey });
    const made = await makeBackup({ backups, clock: systemClock, config });
    console.log(`Backup ${join(config.dataDir, 'backups', made.name)} (${made.bytes} bytes); the newest ${config.backupKeep} are kept.`);
    return 0;
  } finally {
    client.close();
  }
}

const USAGE = `Usage: npm run restore -- <backup.tar.gz>            (a Node backup into the stopped server's DATA_DIR)
       npm run restore -- <backup.json.gz>           (a Worker backup into TURSO_DATABASE_URL, DATABASE_URL or DATA_DIR's database)
       npm run restore -- <backup.json.gz> --sql <out.sql>   (the same as SQL, for: wrangler d1 execute DB --remote --file <out.sql>)`;

export async function restoreCommand(args: string[], env: Env, migrationsFolder: string): Promise<number> {
  let parsed: ReturnType<typeof parseRestoreArgs>;
  try {
    parsed = parseRestoreArgs(args);
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
    return 1;
  }
  const { file, sqlOut } = parsed;
  if (!existsSync(file)) {
    console.error(`No file ${file}`);
    return 1;
  }
  const config = parseConfig(env);
  const now = systemClock.now();
  try {
    if (file.endsWith('.tar.gz')) {
      const databaseFile = nodeDatabaseFile(config);
      const aside = await restoreNodeBackup(
        file,
        {
          dataDir: config.dataDir,
          url: config.databaseUrl ?? `file:${databaseFile}`,
          authToken: config.databaseAuthToken,
          file: databaseFile,
          migrationsFolder,
        },
        now,
      );
      console.log(`Restored ${file} into ${config.dataDir}; what it replaced is in ${aside}. Start the server again.`);
      return 0;
    }
    const raw = await readFile(file);
    const exported = parseExport(JSON.parse((file.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8')));
    if (sqlOut) {
      await writeFile(sqlOut, `${restoreStatements(exported).map(inlined).join(';\n')};\n`, { mode: 0o600 });
      console.log(`Wrote ${sqlOut}. Run: npx wrangler d1 execute DB --remote --file ${sqlOut}`);
      return 0;
    }
    const url = config.tursoUrl ?? config.databaseUrl;
    const authToken = config.tursoUrl ? config.tursoAuthToken : config.databaseAuthToken;
    const databaseFile = url ? null : nodeDatabaseFile(config);
    if (databaseFile !== null) assertDatabaseNotInUse(databaseFile);
    const target = { url: url ?? `file:${databaseFile}`, authToken, file: databaseFile };
    await mkdir(join(config.dataDir, 'backups'), { recursive: true, mode: 0o700 });
    const aside = join(config.dataDir, 'backups', `before-restore-${now.toISOString().replace(/[:.]/g, '-')}.json`);
    await keepRowsAside(target, aside, now);
    const { db, client } = openLibsqlDb(target.url, target.authToken);
    try {
      if (databaseFile !== null) await migrateLibsqlDb(db, migrationsFolder);
      await importTables(db, exported);
    } finally {
      client.close();
    }
    console.log(`Restored ${file} into ${target.url.replace(/\?.*$/, '')}; the rows it replaced are in ${aside}.`);
    return 0;
  } catch (error) {
    console.error(`Restore failed: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

function parseRestoreArgs(args: string[]): { file: string; sqlOut: string | undefined } {
  const { values, positionals } = parseArgs({ args, options: { sql: { type: 'string' } }, allowPositionals: true });
  if (positionals.length !== 1) throw new Error('Name one backup file.');
  const file = positionals[0]!;
  if (!/\.(tar\.gz|json\.gz|json)$/.test(file)) throw new Error(`${file} is no backup (.tar.gz from Node, .json.gz from the Worker)`);
  if (values.sql !== undefined && file.endsWith('.tar.gz')) throw new Error('--sql is for a Worker backup (.json.gz)');
  return { file, sqlOut: values.sql };
}
