import { createReadStream, type Dirent } from 'node:fs';
import { chmod, cp, mkdir, mkdtemp, readdir, readFile, rename, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import Database from 'libsql';
import { create as createTar, extract as extractTar } from 'tar';
import type { PlatformDb } from '../../db/client';
import { migrateLibsqlDb, openLibsqlDb } from '../../db/libsql';
import { localDatabasePath } from '../../db/libsql-local';
import type { BackupFile, BackupStore } from '../../platform/backup-store';
import { ISSUED_FOLDERS } from '../invoices/invoice-series';
import { exportTables, importTables, parseExport } from './table-export';

/**
 * Node's backups (docs/decisions/051): one `.tar.gz` per backup under DATA_DIR/backups (0700, files 0600)
 * holding a consistent copy of the database (`VACUUM INTO`, or its rows as database.json when
 * DATABASE_URL names a remote database), the secret key, and every stored file of DATA_DIR (invoices,
 * APKs, whatever the file store keeps there).
 */

/** The archive's entries: the database copy and the key under these names, the stored files' folders as they are. */
export const ARCHIVE_DATABASE = 'kerstactie.db';
export const ARCHIVE_ROWS = 'database.json';
export const ARCHIVE_KEY = 'secret.key';
const BACKUPS_FOLDER = 'backups';

export interface NodeDatabase {
  db: PlatformDb;
  /** The database's own file, or null when it lives on a server (DATABASE_URL libsql:// or https://). */
  file: string | null;
}

export interface NodeBackupSource extends NodeDatabase {
  dataDir: string;
  secretKey: string;
}

/** The entries of DATA_DIR that are stored files: all but the database and its journals, the key and the backups. */
async function storedEntries(dataDir: string, databaseFile: string | null): Promise<string[]> {
  const database = databaseFile === null ? null : basename(databaseFile);
  const skipped = new Set([ARCHIVE_KEY, BACKUPS_FOLDER]);
  if (database !== null) for (const suffix of ['', '-wal', '-shm', '-journal']) skipped.add(`${database}${suffix}`);
  let entries: Dirent[];
  try {
    entries = await readdir(dataDir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return entries
    .filter((entry) => (entry.isDirectory() || entry.isFile()) && !skipped.has(entry.name) && !entry.name.startsWith('.') && !entry.name.endsWith('.partial'))
    .map((entry) => entry.name)
    .sort();
}

async function backupsFolder(dataDir: string): Promise<string> {
  const folder = join(dataDir, BACKUPS_FOLDER);
  await mkdir(folder, { recursive: true, mode: 0o700 });
  await chmod(folder, 0o700);
  return folder;
}

export function createNodeBackupStore(source: NodeBackupSource): BackupStore {
  const folderPath = join(source.dataDir, BACKUPS_FOLDER);
  return {
    extension: '.tar.gz',
    async create(name, now) {
      const folder = await backupsFolder(source.dataDir);
      const staging = await mkdtemp(join(folder, '.staging-'));
      const partial = join(folder, `.${name}.partial`);
      try {
        const entries = [ARCHIVE_KEY];
        if (source.file !== null) {
          // One statement on the server's own connection: a snapshot, however many writes come meanwhile.
          await source.db.run(sql`VACUUM INTO ${join(staging, ARCHIVE_DATABASE)}`);
          entries.unshift(ARCHIVE_DATABASE);
        } else {
          await writeFile(join(staging, ARCHIVE_ROWS), JSON.stringify(await exportTables(source.db, now)), { mode: 0o600 });
          entries.unshift(ARCHIVE_ROWS);
        }
        await writeFile(join(staging, ARCHIVE_KEY), `${source.secretKey}\n`, { mode: 0o600 });
        // The stored files go in under their own names, read where they are (the links are followed).
        for (const entry of await storedEntries(source.dataDir, source.file)) {
          // Absolute: a link's relative target is read from the link's own folder, not from DATA_DIR's parent.
          await symlink(resolve(source.dataDir, entry), join(staging, entry));
          entries.push(entry);
        }
        await createTar({ cwd: staging, file: partial, gzip: true, follow: true, portable: true, filter: (path) => !path.endsWith('.partial') }, entries);
        await chmod(partial, 0o600);
        const target = join(folder, name);
        await rename(partial, target);
        return (await stat(target)).size;
      } finally {
        await rm(staging, { recursive: true, force: true });
        await rm(partial, { force: true });
      }
    },
    async list() {
      let names: string[];
      try {
        names = await readdir(folderPath);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw error;
      }
      const files: BackupFile[] = [];
      for (const name of names) {
        if (name.startsWith('.')) continue;
        const info = await stat(join(folderPath, name));
        if (info.isFile()) files.push({ name, bytes: info.size });
      }
      return files;
    },
    async open(name) {
      const path = join(folderPath, name);
      try {
        const { size } = await stat(path);
        return { body: Readable.toWeb(createReadStream(path)) as unknown as ReadableStream<Uint8Array>, size };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async remove(name) {
      await rm(join(folderPath, name), { force: true });
    },
  };
}

/**
 * Refuses when another connection has the database file open (a running server holds it in WAL mode,
 * docs/decisions/052): only one that is alone can take the exclusive lock.
 */
export function assertDatabaseNotInUse(file: string): void {
  let db: Database.Database;
  try {
    db = new Database(file, { fileMustExist: true });
  } catch {
    return;
  }
  try {
    db.exec('PRAGMA busy_timeout = 0; PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE; COMMIT');
  } catch (error) {
    if (error instanceof Database.SqliteError && error.code.startsWith('SQLITE_BUSY')) {
      throw new Error(`The database ${file} is in use: stop the server (and any other program that has it open) before a restore.`);
    }
    throw error;
  } finally {
    db.close();
  }
}

export interface RestoreTarget {
  dataDir: string;
  /** The database as DATABASE_URL names it (or DATA_DIR's file), and its token. */
  url: string;
  authToken?: string | undefined;
  /** The database's own file, or null when it lives on a server. */
  file: string | null;
  /** The drizzle/ folder: a backup from an older version is brought up to this one's schema. */
  migrationsFolder: string;
}

async function tighten(path: string): Promise<void> {
  const info = await stat(path);
  if (!info.isDirectory()) {
    await chmod(path, 0o600);
    return;
  }
  await chmod(path, 0o700);
  for (const entry of await readdir(path)) await tighten(join(path, entry));
}

async function moveIfThere(from: string, to: string): Promise<boolean> {
  try {
    await rename(from, to);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

/** The search index is no data of its own: rebuilt from the restored orders (docs/decisions/051). */
async function rebuildSearchIndex(db: PlatformDb): Promise<void> {
  await db.run(sql`INSERT INTO orders_fts(orders_fts) VALUES ('rebuild')`);
}

/**
 * `npm run restore -- <backup.tar.gz>`: puts a backup back into a stopped server's DATA_DIR — the
 * database, the secret key and the stored files. What it replaces is moved aside first, whole, to
 * DATA_DIR/backups/before-restore-<time>/. Answers that folder.
 */
export async function restoreNodeBackup(archive: string, target: RestoreTarget, now: Date): Promise<string> {
  if (target.file !== null) assertDatabaseNotInUse(target.file);
  const folder = await backupsFolder(target.dataDir);
  const unpacked = await mkdtemp(join(folder, '.restore-'));
  try {
    await extractTar({ file: archive, cwd: unpacked, strict: true });
    const names = await readdir(unpacked);
    const key = names.includes(ARCHIVE_KEY) ? (await readFile(join(unpacked, ARCHIVE_KEY), 'utf8')).trim() : '';
    if (!/^[0-9a-f]{64}$/.test(key)) throw new Error(`${archive} holds no secret key (${ARCHIVE_KEY}): not a backup of this server`);
    const hasFile = names.includes(ARCHIVE_DATABASE);
    const rows = names.includes(ARCHIVE_ROWS) ? parseExport(JSON.parse(await readFile(join(unpacked, ARCHIVE_ROWS), 'utf8'))) : null;
    if (!hasFile && !rows) throw new Error(`${archive} holds no database (${ARCHIVE_DATABASE} or ${ARCHIVE_ROWS})`);
    if (hasFile && target.file === null)
      throw new Error(`${archive} holds a database file, but DATABASE_URL names a database server: restore it there with its own tools`);
    if (hasFile) assertIntact(join(unpacked, ARCHIVE_DATABASE));

    const aside = join(folder, `before-restore-${now.toISOString().replace(/[:.]/g, '-')}`);
    await mkdir(aside, { mode: 0o700 });
    // What is there now, moved aside whole: the database with its journals, the key, the stored files.
    if (hasFile) {
      for (const suffix of ['', '-wal', '-shm', '-journal']) await moveIfThere(`${target.file}${suffix}`, join(aside, `${basename(target.file!)}${suffix}`));
    } else {
      await keepRowsAside(target, join(aside, ARCHIVE_ROWS), now);
    }
    await moveIfThere(join(target.dataDir, ARCHIVE_KEY), join(aside, ARCHIVE_KEY));
    for (const entry of await storedEntries(target.dataDir, target.file)) await rename(join(target.dataDir, entry), join(aside, entry));

    // The backup's in their places.
    if (hasFile) await rename(join(unpacked, ARCHIVE_DATABASE), target.file!);
    await rename(join(unpacked, ARCHIVE_KEY), join(target.dataDir, ARCHIVE_KEY));
    for (const entry of names) {
      if (entry === ARCHIVE_DATABASE || entry === ARCHIVE_ROWS || entry === ARCHIVE_KEY) continue;
      await rename(join(unpacked, entry), join(target.dataDir, entry));
      await tighten(join(target.dataDir, entry));
    }
    // Numbers and documents already issued outlive the restore (docs/decisions/049): the series' markers and
    // the invoice files made since the backup come back beside the backup's own, so the next draw skips them.
    for (const entry of ISSUED_FOLDERS) {
      if (!(await stat(join(aside, entry)).catch(() => null))) continue;
      await cp(join(aside, entry), join(target.dataDir, entry), { recursive: true, force: false, errorOnExist: false });
      await tighten(join(target.dataDir, entry));
    }
    await chmod(join(target.dataDir, ARCHIVE_KEY), 0o600);
    await chmod(target.dataDir, 0o700);
    await tighten(aside);

    if (hasFile) await chmod(target.file!, 0o600);
    const opened = openLibsqlDb(target.url, target.authToken);
    try {
      if (target.file !== null) await migrateLibsqlDb(opened.db, target.migrationsFolder);
      if (rows) await importTables(opened.db, rows);
      else await rebuildSearchIndex(opened.db);
    } finally {
      opened.client.close();
    }
    return aside;
  } finally {
    await rm(unpacked, { recursive: true, force: true });
  }
}

/** The rows a restore of rows replaces, written aside first (an empty database has none to keep). */
export async function keepRowsAside(target: Pick<RestoreTarget, 'url' | 'authToken' | 'file'>, path: string, now: Date): Promise<void> {
  if (target.file !== null && !(await stat(target.file).catch(() => null))) return;
  const opened = openLibsqlDb(target.url, target.authToken);
  try {
    await writeFile(path, JSON.stringify(await exportTables(opened.db, now)), { mode: 0o600 });
  } finally {
    opened.client.close();
  }
}

/** A copy that fails SQLite's own check is refused before anything is replaced. */
function assertIntact(file: string): void {
  const db = new Database(file, { fileMustExist: true });
  try {
    const result = db.prepare('PRAGMA integrity_check').get() as { integrity_check?: string } | undefined;
    if (result?.integrity_check !== 'ok') throw new Error(`The backup's database fails SQLite's integrity check: ${result?.integrity_check ?? 'no answer'}`);
  } finally {
    db.close();
  }
}

/** The database file `npm start` opens: DATABASE_URL's file, or DATA_DIR/kerstactie.db; null for a database server. */
export function nodeDatabaseFile(config: { databaseUrl: string | undefined; dataDir: string }): string | null {
  if (!config.databaseUrl) return join(config.dataDir, 'kerstactie.db');
  const path = localDatabasePath(config.databaseUrl);
  return path === ':memory:' ? null : path;
}
