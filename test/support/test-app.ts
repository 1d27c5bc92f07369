import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { createApp } from '../../src/app';
import type { AppDeps } from '../../src/context';
import type { Logger } from '../../src/core/logger';
import { migrateLibsqlDb, openLibsqlDb } from '../../src/db/libsql';
import { groups, userGroups, users } from '../../src/db/schema';
import { FIRST_CLUB_ID } from '../../src/db/club-db';
import { ClubDirectory } from '../../src/platform/club-directory';
import { clubDeps } from '../../src/club-deps';
import { parseConfig } from '../../src/env';
import { createSession, sessionCookieName } from '../../src/features/auth/session';
import { SettingsCache } from '../../src/platform/settings-cache';
import { prepareDatabase } from '../../src/features/setup/prepare';
import type { Clock } from '../../src/platform/clock';
import { createDiskFileStore } from '../../src/platform/files-disk';
import { createNodeBackupStore } from '../../src/features/backups/node-backups';
import { type Argon2Params, createPasswordHasher } from '../../src/platform/password';
import { nodeArgon2id } from '../../src/platform/password-node';
import { TEST_ARGON2_PARAMS } from './argon2-params';
import { countLibsqlQueries } from './query-counter';

export const ADMIN_USERNAME = 'admin';
export const ADMIN_PASSWORD = 'correct-horse-battery';

/** A clock the test moves by hand. */
export class TestClock implements Clock {
  constructor(private current = new Date('2026-11-22T10:00:00.000Z')) {}
  now() {
    return new Date(this.current);
  }
  advance(ms: number) {
    this.current = new Date(this.current.getTime() + ms);
  }
}

export interface TestAppOptions {
  env?: Record<string, string>;
  /** Serves files as the built site would (e.g. createNodeAssets on a folder); none by default. */
  assets?: AppDeps['assets'];
  /** What new password hashes are made with: TEST_ARGON2_PARAMS unless the test is about the production ones. */
  argon2Params?: Argon2Params;
}

/**
 * A fresh app on its own temporary libSQL file and file folder, migrated and seeded exactly as
 * `npm start` does, with an admin `admin` / ADMIN_PASSWORD.
 */
const TEST_SECRET_KEY = '0'.repeat(64);

export async function createTestApp(options: TestAppOptions = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'kerstactie-test-'));
  const config = parseConfig({ DATA_DIR: dir, ADMIN_USERNAME, ADMIN_PASSWORD, ...options.env });
  const { db: database, client } = openLibsqlDb(`file:${join(dir, 'test.db')}`);
  // Counts from the start; tests reset it before the request they measure (`queries.reset()`).
  const queries = countLibsqlQueries(client);
  await migrateLibsqlDb(database, join(process.cwd(), 'drizzle'));
  const clock = new TestClock();
  const passwords = createPasswordHasher(nodeArgon2id, options.argon2Params ?? TEST_ARGON2_PARAMS);
  const errors: string[] = [];
  const log: Logger = { info: () => undefined, error: (message, fields) => errors.push(`${message} ${JSON.stringify(fields)}`) };
  await prepareDatabase({ db: database, clock, passwords, log, secretKey: TEST_SECRET_KEY }, { username: ADMIN_USERNAME, password: ADMIN_PASSWORD });
  const appDeps: AppDeps = {
    config,
    database,
    clubs: new ClubDirectory(database, config, 60_000),
    files: createDiskFileStore(dir),
    backups: createNodeBackupStore({ dataDir: dir, file: join(dir, 'test.db'), db: database, secretKey: TEST_SECRET_KEY }),
    clock,
    passwords,
    settingsCache: new SettingsCache(60_000, clock),
    mailTransport: null,
    secretKey: TEST_SECRET_KEY,
    log,
    assets: options.assets ?? null,
  };
  // The first club's dependencies: what a request on the test's host gets, and what tests call services with.
  // The same object the app holds, so a test that swaps the mail transport swaps it for the app too.
  const deps = Object.assign(appDeps, clubDeps(appDeps, (await appDeps.clubs.get(FIRST_CLUB_ID))!));
  const db = deps.db;
  const app = createApp(appDeps, { clientIp: (c) => c.req.header('x-test-client-ip') ?? '127.0.0.1' });

  /** Sends a request to the app as a browser on the same site would. */
  async function request(
    path: string,
    init: { method?: string; body?: unknown; rawBody?: string; cookie?: string; headers?: Record<string, string>; host?: string } = {},
  ) {
    const headers: Record<string, string> = { ...init.headers };
    if (init.cookie) headers.cookie = init.cookie;
    let body: string | undefined;
    if (init.rawBody !== undefined) body = init.rawBody;
    else if (init.body !== undefined) body = JSON.stringify(init.body);
    if (body !== undefined && !headers['content-type']) headers['content-type'] = 'application/json';
    // The host names the club (docs/decisions/071): the first club's by default.
    const response = await app.request(`http://${init.host ?? '127.0.0.1'}${path}`, {
      method: init.method ?? (body !== undefined ? 'POST' : 'GET'),
      headers,
      body,
    });
    const text = await response.text();
    // biome-ignore lint/suspicious/noExplicitAny: every endpoint answers its own shape; the tests read it freely and assert on it
    let json: any;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: response.status, headers: response.headers, text, json };
  }

  /** Creates a user (active unless told otherwise) in the named groups. */
  async function createUser(username: string, groupNames: string[] = ['Users'], extra: { status?: 'active' | 'inactive'; password?: string } = {}) {
    const now = clock.now().toISOString();
    const [user] = await db
      .insert(users)
      .values({
        username,
        passwordHash: await passwords.hash(extra.password ?? 'password123'),
        status: extra.status ?? 'active',
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    for (const name of groupNames) {
      const [group] = await db
        .select()
        .from(groups)
        .where(eq(sql`lower(${groups.name})`, name.toLowerCase()));
      if (!group) throw new Error(`No group ${name}`);
      await db.insert(userGroups).values({ userId: user!.id, groupId: group.id });
    }
    return user!;
  }

  /** A session cookie for the user with that name, made the way login will make it. */
  async function cookieFor(username: string): Promise<string> {
    const [user] = await db
      .select()
      .from(users)
      .where(eq(sql`lower(${users.username})`, username.toLowerCase()));
    if (!user) throw new Error(`No user ${username}`);
    const { token } = await createSession(db, clock, user.id);
    return `${sessionCookieName(config.publicUrl?.startsWith('https:') ?? false)}=${token}`;
  }

  async function close() {
    client.close();
    rmSync(dir, { recursive: true, force: true });
  }

  return { app, deps, db, database, clock, request, createUser, cookieFor, errors, dir, queries, close };
}

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;
