/**
 * `dist-server/node.js`, how `npm start`, a systemd unit or a container starts the server: it checks the Node it
 * runs on before loading the server bundle (`dist-server/server.js`). On an older Node the bundle's
 * `import { argon2 } from 'node:crypto'` fails while linking with a SyntaxError that tells an operator nothing
 * (docs/decisions/060).
 */
import * as nodeCrypto from 'node:crypto';
import { nodeTooOld } from './platform/node-version';

const problem = nodeTooOld(process.version, 'argon2' in nodeCrypto);
if (problem) {
  console.error(problem);
  process.exit(1);
}
// A specifier in a variable: esbuild leaves the import alone, so the bundle is loaded only after the check.
const serverBundle = './server.js';
const server: typeof import('./node') = await import(serverBundle);
server.runFromCommandLine();
