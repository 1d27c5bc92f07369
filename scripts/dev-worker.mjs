// `npm run dev:worker`: the Worker in wrangler dev with local D1 and R2 (state under .wrangler/).
// Creates .dev.vars with a random SECRET_KEY the first time, applies the migrations locally, builds the SPA.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';

if (!existsSync('.dev.vars')) {
  writeFileSync('.dev.vars', `SECRET_KEY=${randomBytes(32).toString('hex')}\n`, { mode: 0o600 });
  console.log('Created .dev.vars with a random SECRET_KEY.');
}
const run = (args) => execFileSync(process.execPath, args, { stdio: 'inherit' });
run(['node_modules/vite/bin/vite.js', 'build']);
run(['node_modules/wrangler/bin/wrangler.js', 'd1', 'migrations', 'apply', 'DB', '--local']);
const port = process.env.PORT ?? '8787';
const child = spawn(process.execPath, ['node_modules/wrangler/bin/wrangler.js', 'dev', '--ip', '127.0.0.1', '--port', port, ...process.argv.slice(2)], {
  stdio: 'inherit',
});
child.once('exit', (code) => process.exit(code ?? 0));
