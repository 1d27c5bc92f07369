// Bundles src/features/backups/backup-cli.ts for `npm run backup` and `npm run restore` (the same esbuild
// options as the server: npm packages stay external) and answers the module.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { nodeBundleOptions } from './server-build-options.mjs';

export const root = join(import.meta.dirname, '..');

export async function loadBackupCli() {
  const outfile = join(root, 'dist-server', 'backup-cli.js');
  await build({ ...nodeBundleOptions, entryPoints: [join(root, 'src/features/backups/backup-cli.ts')], outfile });
  return import(pathToFileURL(outfile).href);
}
