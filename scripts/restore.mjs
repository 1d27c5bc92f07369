// `npm run restore -- <file>`: puts a backup back into a stopped server's DATA_DIR (a .tar.gz of Node), or a
// Worker backup (.json.gz) into its database; what it replaces is kept aside (docs/decisions/051).
import { join } from 'node:path';
import { loadBackupCli, root } from './backup-cli-bundle.mjs';

const { restoreCommand } = await loadBackupCli();
process.exitCode = await restoreCommand(process.argv.slice(2), process.env, join(root, 'drizzle'));
