// The Worker's figures for `npm run bench` (docs/decisions/035): the deployed bundle's size, and how long the first
// request of a fresh isolate takes under `wrangler dev` on a seeded local D1 — each against its budget, next
// to a bare baseline measured in the same run (a Worker that only answers "ok", so the ratio shows what our
// code adds over the runtime's own start). Prints; the budgets are reported, not fatal.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const wrangler = ['node_modules/wrangler/bin/wrangler.js'];
// docs/decisions/035, amended 2026-11-27: 360 KiB once refusal codes (062) and the generated contract (061) came in.
export const BUNDLE_BUDGET_KIB = 360;
const FIRST_REQUEST_BUDGET_MS = 60;

function freePort() {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function waitUntilReady(child) {
  let output = '';
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`wrangler dev did not start:\n${output}`)), 120_000);
    const look = (chunk) => {
      output += chunk;
      if (output.includes('Ready on')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', look);
    child.stderr.on('data', look);
  });
}

/**
 * How long V8 takes to compile and evaluate the bundle, in a fresh Node process (the median of five): on
 * Cloudflare a new isolate pays this before its first request (under `wrangler dev` it is paid at start-up,
 * so the first-request figure leaves it out). The Worker-only `cloudflare:sockets` import is stubbed.
 */
function startupMs(bundlePath) {
  const source = readFileSync(bundlePath, 'utf8').replace(/from\s*"cloudflare:sockets"/g, 'from "data:text/javascript,export const connect = () => {};"');
  const module = `${bundlePath}.startup.mjs`;
  writeFileSync(module, source);
  const probe = `const t = performance.now(); await import(${JSON.stringify(module)}); console.log(performance.now() - t);`;
  const runs = [];
  for (let i = 0; i < 5; i++) runs.push(Number(execFileSync(process.execPath, ['--input-type=module', '-e', probe], { encoding: 'utf8' }).trim()));
  return runs.sort((a, b) => a - b)[2];
}

/**
 * The median first-request time of fresh `wrangler dev` starts, for several Workers measured in turns (one
 * start of each per round), so a busy moment of the machine hits all of them alike.
 */
async function firstRequestMedians(workers, rounds = 5) {
  const runs = workers.map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (const [i, worker] of workers.entries()) runs[i].push(await oneFirstRequestMs(worker.args, worker.path));
  }
  return runs.map((list) => list.sort((a, b) => a - b)[Math.floor(list.length / 2)]);
}

/** Starts `wrangler dev` with these arguments, times the first request to `path`, then stops it. */
async function oneFirstRequestMs(args, path) {
  const port = await freePort();
  const child = spawn(process.execPath, [...wrangler, 'dev', '--ip', '127.0.0.1', '--port', String(port), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    await waitUntilReady(child);
    const started = performance.now();
    const response = await fetch(`http://127.0.0.1:${port}${path}`);
    await response.arrayBuffer();
    const ms = performance.now() - started;
    if (!response.ok) throw new Error(`${path} answered ${response.status}`);
    return ms;
  } finally {
    child.kill('SIGINT');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

export async function benchWorker() {
  const out = mkdtempSync(join(tmpdir(), 'kerstactie-worker-bench-'));
  try {
    execFileSync(process.execPath, [...wrangler, 'deploy', '--dry-run', '--outdir', out], { stdio: 'ignore' });
    const bundle = readFileSync(join(out, 'worker.js'));
    const gzipKib = gzipSync(bundle, { level: 9 }).length / 1024;

    // The baselines, started the same way: a Worker that only answers "ok", and one that answers one
    // SELECT on the same local D1 (the runtime's own cost of a first database round trip).
    const bareDir = join(out, 'bare');
    execFileSync('mkdir', ['-p', bareDir]);
    writeFileSync(join(bareDir, 'index.js'), 'export default { fetch() { return new Response("ok"); } };\n');
    writeFileSync(join(bareDir, 'wrangler.toml'), 'name = "bare"\nmain = "index.js"\ncompatibility_date = "2026-10-20"\n');
    writeFileSync(
      join(bareDir, 'select.js'),
      'export default { async fetch(_request, env) { return Response.json(await env.DB.prepare("SELECT value FROM settings WHERE key = ?").bind("club_name").first()); } };\n',
    );
    writeFileSync(
      join(bareDir, 'select.toml'),
      'name = "bare-select"\nmain = "select.js"\ncompatibility_date = "2026-10-20"\n[[d1_databases]]\nbinding = "DB"\ndatabase_name = "kerstactie"\ndatabase_id = "00000000-0000-0000-0000-000000000000"\n',
    );

    // Ours, on a local D1 with the migrations applied and the defaults seeded by a first isolate, so the
    // measured isolates start on a seeded database as a deployed one does.
    const state = join(out, 'state');
    execFileSync(process.execPath, [...wrangler, 'd1', 'migrations', 'apply', 'DB', '--local', '--persist-to', state], { stdio: 'ignore' });
    const varsFile = join(out, 'bench.vars');
    writeFileSync(varsFile, `SECRET_KEY=${'b'.repeat(64)}\nADMIN_PASSWORD=bench-admin-password\n`);
    const ours = ['--persist-to', state, '--env-file', varsFile];
    await oneFirstRequestMs(ours, '/api/settings');
    const [oursMs, bareMs, selectMs] = await firstRequestMedians([
      { args: ours, path: '/api/settings' },
      { args: ['--config', join(bareDir, 'wrangler.toml'), '--persist-to', join(out, 'bare-state')], path: '/' },
      { args: ['--config', join(bareDir, 'select.toml'), '--persist-to', state], path: '/' },
    ]);

    console.log('Worker (wrangler deploy --dry-run, wrangler dev on local D1; first requests: median of 5 fresh starts each, in turns)');
    console.log(
      `  bundle            ${gzipKib.toFixed(0).padStart(5)} KiB gzip  (budget <= ${BUNDLE_BUDGET_KIB} KiB) ${gzipKib <= BUNDLE_BUDGET_KIB ? 'ok' : 'OVER BUDGET'}  (${(bundle.length / 1024).toFixed(0)} KiB minified)`,
    );
    console.log(
      `  module start      ${startupMs(join(out, 'worker.js')).toFixed(0).padStart(5)} ms        compile and evaluate the bundle (V8 in Node), paid by each new isolate on Cloudflare`,
    );
    console.log(
      `  first request     ${oursMs.toFixed(0).padStart(5)} ms        (budget <= ${FIRST_REQUEST_BUDGET_MS} ms) ${oursMs <= FIRST_REQUEST_BUDGET_MS ? 'ok' : 'OVER BUDGET'}  GET /api/settings of a new isolate on a seeded D1`,
    );
    console.log(
      `  bare + 1 SELECT   ${selectMs.toFixed(0).padStart(5)} ms        the same for a Worker answering one D1 SELECT; ours / it: ${(oursMs / selectMs).toFixed(2)}×, ours adds ${(oursMs - selectMs).toFixed(0)} ms`,
    );
    console.log(
      `  bare Worker       ${bareMs.toFixed(0).padStart(5)} ms        the same for a Worker answering "ok"; ours / it: ${(oursMs / bareMs).toFixed(2)}×`,
    );
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
