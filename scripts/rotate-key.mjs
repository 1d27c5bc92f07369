// `npm run rotate-key` (docs/decisions/050): re-encrypts a stopped Node server's data with a new secret key.
// Bundles src/features/setup/rotate-key-cli.ts as the server is bundled (npm packages stay external) and runs it
// with the server's configuration (.env and the environment; SECRET_KEY_NEW to choose the new key).
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { nodeBundleOptions } from './server-build-options.mjs';

const root = join(import.meta.dirname, '..');
const outfile = join(root, 'dist-server', 'rotate-key.js');
await build({ ...nodeBundleOptions, entryPoints: [join(root, 'src', 'features', 'setup', 'rotate-key-cli.ts')], outfile });
const { rotateKeyCommand } = await import(pathToFileURL(outfile).href);
process.exitCode = await rotateKeyCommand(process.env, join(root, 'drizzle'));
