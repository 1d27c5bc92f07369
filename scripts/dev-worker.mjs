// `npm run dev:worker`: the Worker in wrangler dev with local D1 and R2 (state under .wrangler/), serving exactly
// what `npm run deploy` ships: the same `build:web` (SPA + prerendered pages), then `wrangler dev`.
// The first run copies .dev.vars.example to .dev.vars with a random SECRET_KEY. The cron can be triggered with
// `curl "http://127.0.0.1:8787/__scheduled?cron=*/5+*+*+*+*"` (wrangler dev --test-scheduled).
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

if (!existsSync('.dev.vars')) {
  const example = readFileSync('.dev.vars.example', 'utf8');
  writeFileSync('.dev.vars', example.replace(/^SECRET_KEY=.*$/m, `SECRET_KEY=${randomBytes(32).toString('hex')}`), { mode: 0o600 });
  console.log('Created .dev.vars from .dev.vars.example with a random SECRET_KEY; fill in ADMIN_PASSWORD and SMTP_URL as you like.');
}
const npm = process.env.npm_execpath;
if (npm) execFileSync(process.execPath, [npm, 'run', 'build:web'], { stdio: 'inherit' });
else execFileSync('npm', ['run', 'build:web'], { stdio: 'inherit' });
execFileSync(process.execPath, ['node_modules/wrangler/bin/wrangler.js', 'd1', 'migrations', 'apply', 'DB', '--local'], { stdio: 'inherit' });
const port = process.env.PORT ?? '8787';
const child = spawn(
  process.execPath,
  ['node_modules/wrangler/bin/wrangler.js', 'dev', '--ip', '127.0.0.1', '--port', port, '--test-scheduled', ...process.argv.slice(2)],
  {
    stdio: 'inherit',
  },
);
child.once('exit', (code) => process.exit(code ?? 0));
