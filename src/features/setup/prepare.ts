import type { Db } from '../../db/client';
import type { Clock } from '../../platform/clock';
import type { PasswordHasher } from '../../platform/password';
import type { Logger } from '../../context';
import { ensureFirstAdmin } from './first-admin';
import { seedDatabase } from './seed';

/** Seeds defaults and makes sure an admin exists; prints a generated admin password once. */
export async function prepareDatabase(
  deps: { db: Db; clock: Clock; passwords: PasswordHasher; log: Logger },
  admin: { username: string; password?: string | undefined },
): Promise<void> {
  await seedDatabase(deps.db, deps.clock);
  const result = await ensureFirstAdmin(deps, admin);
  if (!result.created) return;
  if (result.generatedPassword) {
    deps.log.info(
      `\n  First admin created: username "${result.username}", password "${result.generatedPassword}"\n  This password is shown only once. Sign in and change it, or set ADMIN_PASSWORD before the first start.\n`,
    );
  } else {
    deps.log.info(`First admin created: username "${result.username}" with the password from ADMIN_PASSWORD.`);
  }
}
