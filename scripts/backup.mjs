// `npm run backup`: a backup of the Node server's data (database copy, stored files, secret key) into
// DATA_DIR/backups, the same as the admin area's button; the server may go on running (docs/decisions/051).
import { loadBackupCli } from './backup-cli-bundle.mjs';

const { backupCommand } = await loadBackupCli();
process.exitCode = await backupCommand(process.env);
