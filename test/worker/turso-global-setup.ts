import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';
import { startHranaServer } from '../support/hrana-server';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The Hrana test server's main database, migrated; each workerd test file takes a copy of its own. */
    hranaUrl: string;
  }
}

const root = join(import.meta.dirname, '..', '..');

/**
 * The worker-turso project's database: the Hrana-over-HTTP test server, migrated with `npm run db:migrate`
 * (scripts/migrate.mjs) exactly as a Turso database is before a deploy.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await startHranaServer();
  try {
    // Asynchronously: the server answers in this very process.
    await promisify(execFile)(process.execPath, [join(root, 'scripts/migrate.mjs')], {
      cwd: root,
      env: { ...process.env, TURSO_DATABASE_URL: server.url },
    });
  } catch (error) {
    await server.close();
    throw error;
  }
  project.provide('hranaUrl', server.url);
  return () => server.close();
}
