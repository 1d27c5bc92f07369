import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { clubDb, FIRST_CLUB_ID } from '../../src/db/club-db';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeBase32IgnorePadding } from '@oslojs/encoding';
import { generateHOTP } from '@oslojs/otp';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openLibsqlDb } from '../../src/db/libsql';
import { instanceMeta, users } from '../../src/db/schema';
import { createSession, sessionCookieName } from '../../src/features/auth/session';
import { hashRecoveryCode } from '../../src/features/auth/totp';
import { getSetting } from '../../src/features/settings/settings.service';
import { rotateKeyCommand } from '../../src/features/setup/rotate-key-cli';
import { KEY_FINGERPRINT, missingSecretKey, rotateSecretKey, secretKeyFingerprint, WRONG_SECRET_KEY } from '../../src/features/setup/secret-key';
import { recoveryCodeHasher } from '../../src/features/two-factor/recovery-code-key';
import { startNodeServer } from '../../src/node';

/**
 * docs/decisions/050: the secret key is part of the data. A start without the database's key, or with another
 * one, is refused with one line naming it; a restore with its key starts; `npm run rotate-key` re-encrypts
 * the TOTP secrets and password settings in one batch, and a rotation that fails leaves the old key working.
 */

const parent = mkdtempSync(join(tmpdir(), 'kerstactie-key-'));
afterAll(() => rmSync(parent, { recursive: true, force: true }));

const MIGRATIONS = join(process.cwd(), 'drizzle');
const ADMIN_PASSWORD = 'key-admin-password';
const STEP_MS = 30_000;
const OTHER_KEY = 'b'.repeat(64);

let dirCounter = 0;
let dataDir: string;
beforeEach(() => {
  dataDir = join(parent, `club-${++dirCounter}`);
});

let output: string[];
afterEach(() => vi.restoreAllMocks());
function captureConsole() {
  output = [];
  vi.spyOn(console, 'log').mockImplementation((line: string) => void output.push(line));
  vi.spyOn(console, 'error').mockImplementation((line: string) => void output.push(line));
}

const env = (extra: Record<string, string> = {}) => ({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', ADMIN_PASSWORD, ...extra });
const keyFile = () => join(dataDir, 'secret.key');
const readKey = () => readFileSync(keyFile(), 'utf8').trim();

/** Runs the server on the folder for the length of `use`. */
async function withServer<T>(use: (server: Awaited<ReturnType<typeof startNodeServer>>) => Promise<T>, extra: Record<string, string> = {}): Promise<T> {
  const server = await startNodeServer(env(extra));
  try {
    return await use(server);
  } finally {
    await server.close();
  }
}

/** Changes the stopped server's database directly. */
async function withDatabase(change: (db: ReturnType<typeof openLibsqlDb>['db']) => Promise<unknown>) {
  const { db, client } = openLibsqlDb(`file:${join(dataDir, 'kerstactie.db')}`);
  try {
    await change(db);
  } finally {
    client.close();
  }
}

const codeFor = (secret: string, steps = 0) => generateHOTP(decodeBase32IgnorePadding(secret), BigInt(Math.floor(Date.now() / STEP_MS) + steps), 6);

type Server = Awaited<ReturnType<typeof startNodeServer>>;

async function call(server: Server, path: string, init: { cookie?: string; body?: unknown } = {}) {
  const response = await server.app.request(`http://127.0.0.1${path}`, {
    method: init.body === undefined ? 'GET' : 'POST',
    headers: { ...(init.cookie ? { cookie: init.cookie } : {}), ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: response.status, cookie: response.headers.get('set-cookie')?.split(';')[0], json: (await response.json()) as Record<string, unknown> };
}

/** The admin turns two-factor on and stores a password setting: data only the key opens. */
async function encryptSomething(server: Server) {
  const [admin] = await server.deps.db.select().from(users).where(eq(users.username, 'admin'));
  const { token } = await createSession(server.deps.db, server.deps.clock, admin!.id);
  const cookie = `${sessionCookieName(false)}=${token}`;
  const setup = await call(server, '/api/twofactor/setup', { cookie });
  const secret = setup.json.secret as string;
  const verified = await call(server, '/api/twofactor/verify', { cookie, body: { code: codeFor(secret) } });
  expect(verified.status).toBe(200);
  const added = await call(server, '/api/settings/add', {
    cookie,
    body: { key: 'smtp.secret', value: 'hunter2-geheim', type: 'password', visibility: 'admin' },
  });
  expect(added.status).toBe(200);
  return { secret, recoveryCodes: verified.json.recovery_codes as string[] };
}

/** A full sign-in: password (answered 'Two-factor authentication required'), then the second factor. Answers the second step's status. */
async function signInWithSecondFactor(server: Server, code: string): Promise<number> {
  const login = await call(server, '/api/account/login', { body: { username: 'admin', password: ADMIN_PASSWORD } });
  expect([login.status, login.json]).toMatchObject([401, { success: false, error: 'Two-factor authentication required', code: 'TWO_FACTOR_REQUIRED' }]);
  return (await call(server, '/api/twofactor/completelogin', { cookie: login.cookie!, body: { code } })).status;
}

describe('the key and its fingerprint', () => {
  it('records an HMAC fingerprint of the key made at first start, never the key itself', async () => {
    await withServer(async () => undefined);
    const key = readKey();
    await withDatabase(async (db) => {
      const rows = await db.select().from(instanceMeta);
      const fingerprint = rows.find((row) => row.name === KEY_FINGERPRINT)?.value;
      expect(fingerprint).toBe(await secretKeyFingerprint(key));
      expect(fingerprint).toMatch(/^v1:[0-9a-f]{64}$/);
      for (const row of rows) expect(row.value).not.toContain(key);
    });
  });

  it('refuses to start without secret.key when the database has one, and makes no new key', async () => {
    await withServer(async () => undefined);
    rmSync(keyFile());
    await expect(startNodeServer(env())).rejects.toThrow(missingSecretKey(keyFile()));
    expect(existsSync(keyFile())).toBe(false);
    expect(missingSecretKey(keyFile())).toBe(
      `Invalid configuration: ${keyFile()} is missing, but this database was set up with a secret key; put that secret.key back (or set SECRET_KEY to it): a new key is never made for a database that had one`,
    );
  });

  it('refuses another key, in secret.key or in SECRET_KEY, with one line naming them', async () => {
    await withServer(async () => undefined);
    const key = readKey();
    await expect(startNodeServer(env({ SECRET_KEY: OTHER_KEY }))).rejects.toThrow(WRONG_SECRET_KEY);
    writeFileSync(keyFile(), `${OTHER_KEY}\n`);
    await expect(startNodeServer(env())).rejects.toThrow(WRONG_SECRET_KEY);
    expect(WRONG_SECRET_KEY).toBe(
      'Invalid configuration: SECRET_KEY (or DATA_DIR/secret.key) is not the key this database was encrypted with; start with the key that belongs to this database (restore the database and its secret.key together)',
    );
    // The key of the database in SECRET_KEY is fine too.
    rmSync(keyFile());
    await withServer(async (server) => expect(server.deps.secretKey).toBe(key), { SECRET_KEY: key });
  });

  it('checks a database from before fingerprints against what it holds encrypted, then records the fingerprint', async () => {
    const { secret } = await withServer(encryptSomething);
    const key = readKey();
    const forget = () => withDatabase((db) => db.delete(instanceMeta).where(eq(instanceMeta.name, KEY_FINGERPRINT)));
    await forget();
    rmSync(keyFile());
    await expect(startNodeServer(env())).rejects.toThrow(missingSecretKey(keyFile()));
    await expect(startNodeServer(env({ SECRET_KEY: OTHER_KEY }))).rejects.toThrow(WRONG_SECRET_KEY);
    writeFileSync(keyFile(), `${key}\n`, { mode: 0o600 });
    await withServer(async (server) => expect(await signInWithSecondFactor(server, codeFor(secret, 1))).toBe(200));
    await withDatabase(async (db) => {
      const [row] = await db.select().from(instanceMeta).where(eq(instanceMeta.name, KEY_FINGERPRINT));
      expect(row?.value).toBe(await secretKeyFingerprint(key));
    });
  });

  it('starts a restored database that comes with its key, and 2FA sign-in works', async () => {
    const { secret, recoveryCodes } = await withServer(encryptSomething);
    const restored = join(parent, `restored-${dirCounter}`);
    mkdirSync(restored, { mode: 0o700 });
    await withServer(async (server) => server.database.run(sql`VACUUM INTO ${join(restored, 'kerstactie.db')}`));
    copyFileSync(keyFile(), join(restored, 'secret.key'));
    dataDir = restored;
    await withServer(async (server) => {
      expect(await signInWithSecondFactor(server, codeFor(secret, 1))).toBe(200);
      expect(await signInWithSecondFactor(server, recoveryCodes[0]!)).toBe(200);
    });
  });
});

describe('npm run rotate-key', () => {
  it('re-encrypts the TOTP secrets and password settings; codes, recovery codes and settings work with the new key only', async () => {
    const { secret, recoveryCodes } = await withServer(encryptSomething);
    const oldKey = readKey();
    captureConsole();
    expect(await rotateKeyCommand(env(), MIGRATIONS)).toBe(0);
    expect(output).toEqual([
      `Re-encrypted 1 two-factor secret(s) and 1 password setting(s); 10 unused recovery code(s) stay valid. The new key is in ${keyFile()}.`,
    ]);
    const newKey = readKey();
    expect(newKey).toMatch(/^[0-9a-f]{64}$/);
    expect(newKey).not.toBe(oldKey);
    expect(statSync(keyFile()).mode & 0o777).toBe(0o600);
    expect(existsSync(`${keyFile()}.new`)).toBe(false);
    expect(existsSync(`${keyFile()}.old`)).toBe(false);

    await withServer(async (server) => {
      expect(await signInWithSecondFactor(server, codeFor(secret, 1))).toBe(200);
      expect(await signInWithSecondFactor(server, recoveryCodes[1]!)).toBe(200);
      expect(await getSetting(server.deps, 'smtp.secret')).toBe('hunter2-geheim');
    });
    await expect(startNodeServer(env({ SECRET_KEY: oldKey }))).rejects.toThrow(WRONG_SECRET_KEY);
  });

  it('takes the new key from SECRET_KEY_NEW, and with SECRET_KEY in the environment insists on it', async () => {
    await withServer(encryptSomething);
    const oldKey = readKey();
    rmSync(keyFile());
    captureConsole();
    expect(await rotateKeyCommand(env({ SECRET_KEY: oldKey }), MIGRATIONS)).toBe(1);
    expect(output).toEqual(['SECRET_KEY is set in the environment: give the new key as SECRET_KEY_NEW, and set SECRET_KEY to it once the rotation is done']);
    output.length = 0;
    expect(await rotateKeyCommand(env({ SECRET_KEY: oldKey, SECRET_KEY_NEW: 'xyz' }), MIGRATIONS)).toBe(1);
    expect(output).toEqual(['Invalid configuration: SECRET_KEY_NEW must be 64 hexadecimal characters (32 random bytes)']);
    expect(await rotateKeyCommand(env({ SECRET_KEY: oldKey, SECRET_KEY_NEW: OTHER_KEY }), MIGRATIONS)).toBe(0);
    expect(existsSync(keyFile())).toBe(false);
    await withServer(async (server) => expect(await getSetting(server.deps, 'smtp.secret')).toBe('hunter2-geheim'), { SECRET_KEY: OTHER_KEY });
  });

  it('leaves the old key in use when the batch fails', async () => {
    const { secret } = await withServer(encryptSomething);
    const oldKey = readKey();
    await withDatabase((db) => db.run(sql.raw(`CREATE TRIGGER fail_rotation BEFORE UPDATE ON settings BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END`)));
    captureConsole();
    expect(await rotateKeyCommand(env(), MIGRATIONS)).toBe(1);
    expect(output).toHaveLength(1);
    expect(output[0]).toMatch(/^Key rotation failed; nothing was changed and the old key stays in use: .*disk I\/O error$/);
    expect(readKey()).toBe(oldKey);
    expect(existsSync(`${keyFile()}.new`)).toBe(false);
    expect(existsSync(`${keyFile()}.old`)).toBe(false);
    await withDatabase((db) => db.run(sql.raw('DROP TRIGGER fail_rotation')));
    await withServer(async (server) => {
      expect(await signInWithSecondFactor(server, codeFor(secret, 1))).toBe(200);
      expect(await getSetting(server.deps, 'smtp.secret')).toBe('hunter2-geheim');
    });
  });

  it('finishes a rotation cut off after its batch committed, from secret.key.new', async () => {
    await withServer(encryptSomething);
    const oldKey = readKey();
    // The batch ran, then the process died before secret.key was replaced.
    await withDatabase((db) => rotateSecretKey(db, oldKey, OTHER_KEY));
    writeFileSync(`${keyFile()}.new`, `${OTHER_KEY}\n`, { mode: 0o600 });
    writeFileSync(`${keyFile()}.old`, `${oldKey}\n`, { mode: 0o600 });
    await expect(startNodeServer(env())).rejects.toThrow(WRONG_SECRET_KEY);
    captureConsole();
    expect(await rotateKeyCommand(env(), MIGRATIONS)).toBe(0);
    expect(output).toEqual([`An earlier rotation had re-encrypted the data but not replaced ${keyFile()}; it is replaced now. Start the server.`]);
    expect(readKey()).toBe(OTHER_KEY);
    expect(existsSync(`${keyFile()}.old`)).toBe(false);
    await withServer(async (server) => expect(await getSetting(server.deps, 'smtp.secret')).toBe('hunter2-geheim'));
  });
});

describe('the recovery-code key', () => {
  it('is derived from SECRET_KEY as before the rotation existed, so codes issued then still match', async () => {
    const { db, client } = openLibsqlDb(`file:${join(parent, 'hash.db')}`);
    try {
      const { migrateLibsqlDb } = await import('../../src/db/libsql');
      await migrateLibsqlDb(db, MIGRATIONS);
      const hash = await recoveryCodeHasher(clubDb(db, FIRST_CLUB_ID), OTHER_KEY);
      expect(await hash('K7QD-M3XP')).toBe(await hashRecoveryCode(OTHER_KEY, 'K7QD-M3XP'));
    } finally {
      client.close();
    }
  });
});
