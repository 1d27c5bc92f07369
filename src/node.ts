/**
 * Node entry (`npm start`): libSQL file in DATA_DIR, files on disk, the built SPA from dist/web.
 * Thin: it builds the dependencies and hands every request to the same Hono app as the Worker.
 */
import { ClubDirectory } from './platform/club-directory';
import { clubDeps, forEachClub } from './club-deps';
import { deleteExpiredSignups } from './features/clubs/clubs.service';
import { FIRST_CLUB_ID } from './db/club-db';
import { readPdfFontsFrom } from './platform/pdf-font';
import { bundledPdfFonts } from './platform/pdf-font-bundled';
import { serve } from '@hono/node-server';
import { encodeHexLowerCase } from '@oslojs/encoding';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApp } from './app';
import type { AppDeps } from './context';
import { consoleLogger } from './core/logger';
import type { PlatformDb } from './db/client';
import { migrateLibsqlDb, openLibsqlDb } from './db/libsql';
import { ConfigError, listeningOrigin, parseConfig, type Config } from './env';
import { prepareDatabase } from './features/setup/prepare';
import { databaseHasAKey, missingSecretKey, SecretKeyError } from './features/setup/secret-key';
import { SettingsCache } from './platform/settings-cache';
import { systemClock } from './platform/clock';
import { randomBytes } from './platform/crypto';
import { createDiskFileStore } from './platform/files-disk';
import { forwardedClientIp } from './platform/client-address';
import { housekeeping } from './features/housekeeping/housekeeping';
import { makeDailyBackup } from './features/backups/backups.service';
import { createNodeBackupStore, nodeDatabaseFile } from './features/backups/node-backups';
import { drainOutbox, mailSettled, stopDraining } from './features/mail/mail-delivery';
import { sendDueReminders } from './features/invoices/invoices.service';
import { createNodeAssets } from './platform/node-assets';
import { type Argon2Params, createPasswordHasher } from './platform/password';
import { nodeArgon2id } from './platform/password-node';
import { createNodeSmtpTransport } from './platform/smtp-node';
import { trackConnections } from './platform/http-shutdown';
import { requeueInterruptedMail } from './platform/mail';

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** How long a shutdown waits for requests and mail under way (docs/decisions/053); within Docker's and systemd's defaults. */
const SHUTDOWN_TIMEOUT_MS = 25_000;

/**
 * SECRET_KEY, or one generated on first start and kept in DATA_DIR (docs/architecture.md §2); never generated for
 * a database that already had a key (docs/decisions/050).
 */
async function loadSecretKey(config: Config, db: PlatformDb): Promise<string> {
  if (config.secretKey) return config.secretKey;
  const file = join(config.dataDir, 'secret.key');
  if (existsSync(file)) {
    const key = (await readFile(file, 'utf8')).trim();
    if (!/^[0-9a-f]{64}$/.test(key)) throw new ConfigError(`Invalid configuration: ${file} must hold 64 hexadecimal characters`);
    return key;
  }
  // A restore without its key: a new one would not open what the old one encrypted (docs/decisions/050).
  if (await databaseHasAKey(db)) throw new SecretKeyError(missingSecretKey(file));
  const key = encodeHexLowerCase(randomBytes(32));
  await writeFile(file, `${key}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
  return key;
}

/**
 * What only code can choose, never the environment: the Argon2 parameters of new hashes, which the browser tests
 * lower (docs/decisions/063). The command line passes none, so a server always hashes with CURRENT_ARGON2_PARAMS.
 */
export interface NodeServerOptions {
  argon2Params?: Argon2Params;
}

export async function startNodeServer(env: Record<string, string | undefined> = process.env, options: NodeServerOptions = {}) {
  const config = parseConfig(env);
  readPdfFontsFrom(bundledPdfFonts);
  // docs/decisions/032: the data folder (database, secret key, invoices, APKs) is the owner's alone. A
  // folder made before is tightened too. SQLite gives its journal files the database file's mode.
  await mkdir(config.dataDir, { recursive: true, mode: 0o700 });
  await chmod(config.dataDir, 0o700);
  const databaseFile = join(config.dataDir, 'kerstactie.db');
  const databaseUrl = config.databaseUrl ?? `file:${databaseFile}`;
  // Before it is opened: its -wal and -shm files are made with its mode (docs/decisions/052).
  if (!config.databaseUrl && existsSync(databaseFile)) await chmod(databaseFile, 0o600);
  const { db, client } = openLibsqlDb(databaseUrl, config.databaseAuthToken);
  await migrateLibsqlDb(db, join(projectRoot, 'drizzle'));
  if (!config.databaseUrl) await chmod(databaseFile, 0o600);

  const clock = systemClock;
  const passwords = createPasswordHasher(nodeArgon2id, options.argon2Params);
  const log = consoleLogger;
  const secretKey = await loadSecretKey(config, db);
  await prepareDatabase({ db, clock, passwords, log, secretKey }, { username: config.adminUsername, password: config.adminPassword });

  const webRoot = join(projectRoot, 'dist', 'web');
  const files = createDiskFileStore(config.dataDir);
  const deps: AppDeps = {
    config,
    database: db,
    // One process writes through this directory; the TTL covers other processes sharing a remote database.
    clubs: new ClubDirectory(db, config, 60_000),
    files,
    clock,
    passwords,
    // One process writes through this cache; the TTL covers other processes sharing a remote database.
    settingsCache: new SettingsCache(60_000, clock),
    // Without SMTP_URL mail waits in the outbox (the admin's mail view says so).
    mailTransport: config.smtpUrl ? createNodeSmtpTransport(config.smtpUrl, {}, config.mailConnections) : null,
    backups: createNodeBackupStore({ dataDir: config.dataDir, file: nodeDatabaseFile(config), db, secretKey }),
    secretKey,
    log,
    assets: existsSync(join(webRoot, 'index.html')) ? createNodeAssets(webRoot) : null,
  };
  if (!deps.assets) log.info(`No SPA build in ${webRoot}: serving the API only (run \`npm run build:web\`).`);
  // docs/decisions/053: a database file has this process as its only sender, so mail left 'sending' was cut
  // off by its previous run and goes again now. A shared remote database waits for the rows' lease instead.
  if (!config.databaseUrl || config.databaseUrl.startsWith('file:')) {
    await forEachClub(deps, 'Queueing cut-off mail again', async (club) => {
      const cutOff = await requeueInterruptedMail(club.db, clock);
      if (cutOff > 0) log.info(`${cutOff} message(s) of ${club.club.slug} cut off by the last shutdown are queued again.`);
    });
  }

  const app = createApp(deps, {
    clientIp: (c) =>
      forwardedClientIp(
        (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming?.socket?.remoteAddress ?? 'unknown',
        c.req.header('x-forwarded-for'),
        config.trustedProxies,
      ),
  });

  // docs/architecture.md §3 mail: every minute the outbox is drained until nothing is due (docs/decisions/053; retries
  // come due on this beat); expired sessions, rate-limit windows, reset links and old audit entries are dropped
  // on the same beat, and the automatic payment reminders (reminder_auto_days) go out.
  const mailTimer = setInterval(() => {
    void forEachClub(deps, 'Mail delivery', (club) => drainOutbox(club, 'timer'));
    void forEachClub(deps, 'Housekeeping', (club) => housekeeping(club));
    deleteExpiredSignups(deps).catch((error) => log.error('Housekeeping failed', { error: String(error) }));
    void forEachClub(deps, 'Automatic reminders', (club) => sendDueReminders(club));
  }, 60_000);
  mailTimer.unref();
  // docs/decisions/051: one backup a day by itself, looked for every ten minutes; BACKUP_KEEP are kept.
  const backupTimer = setInterval(() => {
    makeDailyBackup(deps).catch((error) => log.error('Daily backup failed', { error: String(error) }));
  }, 10 * 60_000);
  backupTimer.unref();

  const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host }) as Server;
  const connections = trackConnections(server);
  await new Promise<void>((resolveListening, reject) => {
    server.once('listening', () => resolveListening());
    server.once('error', reject);
  });
  const address = server.address() as AddressInfo;
  // docs/decisions/054: without PUBLIC_URL the links name the listening address, with the port PORT=0 picked.
  // Set before any request is read: the 'listening' continuation runs ahead of the first connection.
  if (!config.publicUrl) config.origin = listeningOrigin(config.host, address.port);
  log.info(`Kerstactie is running on ${listeningOrigin(config.host, address.port)}`);
  if (!config.publicUrl) log.info(`PUBLIC_URL is not set: links in mail point to ${config.origin}. Set PUBLIC_URL to the address members use.`);
  // What waited while the server was down (or was cut off by the last shutdown) goes now, not at the first tick.
  void forEachClub(deps, 'Mail delivery', (club) => drainOutbox(club, 'timer'));

  /**
   * Graceful shutdown (docs/decisions/053): stop accepting and stop claiming mail, answer every request
   * already accepted, wait for the mail sends under way, then close the database; after `timeoutMs` the
   * rest is cut off (its mail goes again at the next start).
   */
  let closing: Promise<void> | null = null;
  const close = (timeoutMs = SHUTDOWN_TIMEOUT_MS) => {
    closing ??= (async () => {
      const deadline = Date.now() + timeoutMs;
      clearInterval(mailTimer);
      clearInterval(backupTimer);
      stopDraining(deps);
      await connections.close(deadline);
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([mailSettled(deps), new Promise((done) => (timer = setTimeout(done, Math.max(0, deadline - Date.now()))))]);
      clearTimeout(timer);
      deps.mailTransport?.close?.();
      client.close();
    })();
    return closing;
  };
  // `deps` is the first club's (what the command line and tests work with); `database` the whole one.
  const firstClub = clubDeps(deps, (await deps.clubs.get(FIRST_CLUB_ID))!);
  return { app, deps: firstClub, database: db, port: address.port, close };
}

/** The command line's server (`dist-server/node.js` calls this once it has checked the Node version). */
export function runFromCommandLine(): void {
  const started = startNodeServer();
  // Listened for from the first moment: a signal during start-up stops the server as soon as it is up.
  const stop = () => {
    consoleLogger.info(`Stopping: finishing the requests and mail under way (at most ${SHUTDOWN_TIMEOUT_MS / 1000} s).`);
    started.then(({ close }) => close()).finally(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  started.catch((error: unknown) => {
    if (error instanceof ConfigError || (error instanceof Error && error.message.startsWith('Invalid configuration'))) {
      console.error(error.message);
    } else {
      console.error(error);
    }
    process.exit(1);
  });
}
