import { existsSync } from 'node:fs';
import { chmod, copyFile, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { encodeHexLowerCase } from '@oslojs/encoding';
import { eq } from 'drizzle-orm';
import { migrateLibsqlDb, openLibsqlDb } from '../../db/libsql';
import { instanceMeta } from '../../db/schema';
import { ConfigError, parseConfig } from '../../env';
import { randomBytes } from '../../platform/crypto';
import { KEY_FINGERPRINT, rotateSecretKey, secretKeyFingerprint } from './secret-key';

/**
 * `npm run rotate-key` (scripts/rotate-key.mjs; docs/decisions/050), on a stopped Node server's DATA_DIR or
 * DATABASE_URL: re-encrypts the data with a new key (SECRET_KEY_NEW, or one made here) in one batch. With the
 * key in DATA_DIR/secret.key, the new key waits in secret.key.new and the old one is kept as secret.key.old
 * until the batch has committed; then secret.key.new becomes secret.key. A run cut off after the commit is
 * finished by the next run. Answers the exit code.
 */

type Env = Record<string, string | undefined>;
const HEX_KEY = /^[0-9a-f]{64}$/;

async function readKey(file: string): Promise<string> {
  const key = (await readFile(file, 'utf8')).trim();
  if (!HEX_KEY.test(key)) throw new ConfigError(`Invalid configuration: ${file} must hold 64 hexadecimal characters`);
  return key;
}

async function writeKey(file: string, key: string): Promise<void> {
  await writeFile(file, `${key}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
}

export async function rotateKeyCommand(env: Env, migrationsFolder: string): Promise<number> {
  let config: ReturnType<typeof parseConfig>;
  try {
    config = parseConfig(env);
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    return 1;
  }
  const given = env.SECRET_KEY_NEW?.trim().toLowerCase();
  if (given !== undefined && !HEX_KEY.test(given)) {
    console.error('Invalid configuration: SECRET_KEY_NEW must be 64 hexadecimal characters (32 random bytes)');
    return 1;
  }
  const keyFile = join(config.dataDir, 'secret.key');
  const pendingFile = `${keyFile}.new`;
  const oldFile = `${keyFile}.old`;
  // A key from the environment is the operator's to replace: we can only be told the new one.
  if (config.secretKey && given === undefined) {
    console.error('SECRET_KEY is set in the environment: give the new key as SECRET_KEY_NEW, and set SECRET_KEY to it once the rotation is done');
    return 1;
  }
  if (!config.secretKey && !existsSync(keyFile)) {
    console.error(`No secret key at ${keyFile} and no SECRET_KEY: there is nothing to rotate`);
    return 1;
  }
  const databaseFile = join(config.dataDir, 'kerstactie.db');
  if (!config.databaseUrl && !existsSync(databaseFile)) {
    console.error(`No database at ${databaseFile}: start the server once first`);
    return 1;
  }
  const { db, client } = openLibsqlDb(config.databaseUrl ?? `file:${databaseFile}`, config.databaseAuthToken);
  try {
    await migrateLibsqlDb(db, migrationsFolder);
    const oldKey = config.secretKey ?? (await readKey(keyFile));

    if (!config.secretKey && existsSync(pendingFile)) {
      // An earlier run: finished when its batch committed (the database names the pending key), void when not.
      const pending = await readKey(pendingFile);
      const [stored] = await db.select({ value: instanceMeta.value }).from(instanceMeta).where(eq(instanceMeta.name, KEY_FINGERPRINT));
      if (stored?.value === (await secretKeyFingerprint(pending))) {
        await rename(pendingFile, keyFile);
        await rm(oldFile, { force: true });
        console.log(`An earlier rotation had re-encrypted the data but not replaced ${keyFile}; it is replaced now. Start the server.`);
        return 0;
      }
      await rm(pendingFile, { force: true });
    }

    const newKey = given ?? encodeHexLowerCase(randomBytes(32));
    if (newKey === oldKey) {
      console.error('The new key is the key in use: nothing to rotate');
      return 1;
    }
    if (!config.secretKey) {
      await writeKey(pendingFile, newKey);
      await copyFile(keyFile, oldFile);
      await chmod(oldFile, 0o600);
    }
    let result: Awaited<ReturnType<typeof rotateSecretKey>>;
    try {
      result = await rotateSecretKey(db, oldKey, newKey);
    } catch (error) {
      if (!config.secretKey) {
        await rm(pendingFile, { force: true });
        await rm(oldFile, { force: true });
      }
      console.error(`Key rotation failed; nothing was changed and the old key stays in use: ${error instanceof Error ? error.message : String(error)}`);
      return 1;
    }
    if (!config.secretKey) {
      await rename(pendingFile, keyFile);
      await rm(oldFile, { force: true });
    }
    const where = config.secretKey ? 'Set SECRET_KEY to the new key (SECRET_KEY_NEW) before you start the server.' : `The new key is in ${keyFile}.`;
    console.log(
      `Re-encrypted ${result.twoFactorSecrets} two-factor secret(s) and ${result.passwordSettings} password setting(s); ${result.recoveryCodes} unused recovery code(s) stay valid. ${where}`,
    );
    return 0;
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    return 1;
  } finally {
    client.close();
  }
}
