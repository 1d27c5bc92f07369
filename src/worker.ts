/**
 * Cloudflare Worker entry: D1 (or Turso over HTTP when TURSO_DATABASE_URL is set), R2 for files, the
 * assets binding for the SPA. Thin: it builds the dependencies once per isolate and hands every request
 * to the same Hono app as Node. The cron trigger delivers the mail outbox.
 */
import { ClubDirectory } from './platform/club-directory';
import { forEachClub } from './club-deps';
import { deleteExpiredSignups } from './features/clubs/clubs.service';
import { readPdfFontsFrom } from './platform/pdf-font';
import { pdfFontsFromAssets } from './platform/pdf-font-source';
import type { ExecutionContext, ScheduledController } from '@cloudflare/workers-types';
import type { Hono } from 'hono';
import { connect } from 'cloudflare:sockets';
import { createApp } from './app';
import type { AppDeps } from './context';
import { consoleLogger } from './core/logger';
import { openD1Db } from './db/d1';
import { ConfigError, parseConfig } from './env';
import { SettingsCache } from './platform/settings-cache';
import { prepareDatabase } from './features/setup/prepare';
import { SecretKeyError } from './features/setup/secret-key';
import { AppError, refusalBody } from './core/errors';
import type { AppEnv } from './http/app-env';
import { systemClock } from './platform/clock';
import { createR2FileStore } from './platform/files-r2';
import { housekeeping } from './features/housekeeping/housekeeping';
import { makeDailyBackup } from './features/backups/backups.service';
import { createR2BackupStore } from './features/backups/r2-backups';
import { drainOutbox } from './features/mail/mail-delivery';
import { sendDueReminders } from './features/invoices/invoices.service';
import { type Argon2Params, CURRENT_ARGON2_PARAMS, createPasswordHasher } from './platform/password';
import { jsArgon2id } from './platform/password-js';
import { createWorkerSmtpTransport } from './platform/smtp-worker';

/** The bindings, vars and secrets: `Env` is generated from wrangler.toml and .dev.vars.example (`npm run cf-typegen`). */
export type WorkerEnv = Env;

interface Isolate {
  app: Hono<AppEnv>;
  deps: AppDeps;
}

async function buildIsolate(env: WorkerEnv, argon2Params: Argon2Params): Promise<Isolate> {
  const config = parseConfig({ ...env });
  const secretKey = config.secretKey;
  if (!secretKey) throw new ConfigError('Invalid configuration: SECRET_KEY is required on the Worker (wrangler secret put SECRET_KEY)');
  // docs/decisions/054: links in mail come from the club's origin; a Worker has no listening address to
  // default to, and the request's Host is not to be trusted, so it does not run without one.
  if (!config.publicUrl) {
    throw new ConfigError(
      'Invalid configuration: PUBLIC_URL is required on the Worker (the address members use, e.g. https://kerst.example.nl; links in mail are built on it)',
    );
  }
  // The libSQL client is imported only when Turso is configured: on D1 it is never evaluated.
  const db = config.tursoUrl ? (await import('./db/libsql-web')).openTursoDb(config.tursoUrl, config.tursoAuthToken) : openD1Db(env.DB);
  const clock = systemClock;
  const passwords = createPasswordHasher(jsArgon2id, argon2Params);
  const assets = env.ASSETS;
  // The PDF font is a static asset, not part of the bundle (docs/decisions/035 and 059, amended).
  if (assets) readPdfFontsFrom(pdfFontsFromAssets((request) => assets.fetch(request as never) as unknown as Promise<Response>));
  let readiness: Promise<void> | null = null;
  const deps: AppDeps = {
    config,
    database: db,
    // Other isolates may change clubs: re-read them every few seconds, as the settings.
    clubs: new ClubDirectory(db, config, 5_000),
    files: createR2FileStore(env.APKS),
    backups: createR2BackupStore(env.APKS, db),
    clock,
    passwords,
    // Other isolates may write settings: re-read them every few seconds.
    settingsCache: new SettingsCache(5_000, clock),
    // SMTP over cloudflare:sockets; without SMTP_URL mail waits in the outbox.
    mailTransport: config.smtpUrl ? createWorkerSmtpTransport(config.smtpUrl, connect) : null,
    secretKey,
    log: consoleLogger,
    assets: assets ? (request) => assets.fetch(request as never) as unknown as Promise<Response> : null,
    // Migrations are applied by `wrangler d1 migrations apply` (or `npm run db:migrate` for Turso);
    // seeding and the first admin are checked once per isolate, before its first request.
    ready: () => {
      readiness ??= prepareDatabase(
        { db, clock, passwords, log: consoleLogger, secretKey },
        { username: config.adminUsername, password: config.adminPassword },
      ).catch((error: unknown) => {
        readiness = null;
        // A SECRET_KEY that is not the database's (docs/decisions/050): one line in the log, 503 to the client.
        if (error instanceof SecretKeyError) {
          consoleLogger.error(error.message);
          throw new AppError('SERVER_MISCONFIGURED', 'Server misconfigured');
        }
        throw error;
      });
      return readiness;
    },
  };
  const app = createApp(deps, { clientIp: (c) => c.req.header('cf-connecting-ip') ?? 'unknown' });
  return { app, deps };
}

/** docs/decisions/051: the cron makes the day's backup when there is none yet; a failure is logged and tried at the next run. */
function dailyBackup(deps: AppDeps): Promise<unknown> {
  return makeDailyBackup(deps).catch((error: unknown) =>
    deps.log.error('Daily backup failed', { error: error instanceof Error ? error.message : String(error) }),
  );
}

/**
 * The Worker's handlers. Deployments use the default export, with the production Argon2 parameters; the workerd
 * tests' entry (test/worker/entry.ts) builds one with cheap parameters, as the Node tests do (docs/decisions/063).
 */
export function createWorker(argon2Params: Argon2Params = CURRENT_ARGON2_PARAMS) {
  let isolate: Promise<Isolate> | null = null;

  /** The isolate's dependencies, built once; a failed build is retried by the next request. */
  const isolateFor = (env: WorkerEnv): Promise<Isolate> => {
    isolate ??= buildIsolate(env, argon2Params).catch((error: unknown) => {
      isolate = null;
      throw error;
    });
    return isolate;
  };

  return {
    async fetch(request: Request, env: WorkerEnv, ctx: ExecutionContext): Promise<Response> {
      let built: Isolate;
      try {
        built = await isolateFor(env);
      } catch (error) {
        console.error(error instanceof Error ? error.message : String(error));
        return Response.json(refusalBody('SERVER_MISCONFIGURED', 'Server misconfigured'), { status: 503 });
      }
      return built.app.fetch(request, env, ctx as never);
    },

    async scheduled(_controller: ScheduledController, env: WorkerEnv, ctx: ExecutionContext): Promise<void> {
      const { deps } = await isolateFor(env);
      // The same checks as before a request: with a SECRET_KEY that is not the database's, the cron touches
      // nothing (no mail, reminders or backups) and the refusal is logged (docs/decisions/050).
      try {
        await deps.ready?.();
      } catch {
        return;
      }
      // The cron continues the drain where requests stopped, within its own bound (docs/decisions/053).
      // Each club's outbox, housekeeping and reminders (docs/decisions/071); the backup is the deployment's.
      ctx.waitUntil(
        Promise.all([
          forEachClub(deps, 'Cron', (club) => Promise.all([drainOutbox(club, 'cron'), housekeeping(club), sendDueReminders(club)])),
          deleteExpiredSignups(deps).catch((error: unknown) => deps.log.error('Housekeeping failed', { error: String(error) })),
          dailyBackup(deps),
        ]),
      );
    },
  };
}

export default createWorker();
