// `npm run bench`: GET /api/settings on the real Node server against a bare Hono route in the same
// process, on loopback. Budget (issue 2): settings at >= 50 % of the bare route's requests/s.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { startNodeServer } from '../dist-server/node.js';

const seconds = process.env.BENCH_SECONDS ?? '5';
const connections = process.env.BENCH_CONNECTIONS ?? '32';
const dataDir = mkdtempSync(join(tmpdir(), 'kerstactie-bench-'));
const log = console.log;
console.log = () => undefined; // keep the server's start-up lines out of the report
const server = await startNodeServer({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', ADMIN_PASSWORD: 'bench-admin-password' });
console.log = log;

const bare = new Hono();
bare.get('/bare', (c) => c.json({ ok: true }));
const bareServer = serve({ fetch: bare.fetch, port: 0, hostname: '127.0.0.1' });
await new Promise((resolve) => bareServer.once('listening', resolve));
const barePort = bareServer.address().port;

// The load runs in a child process, asynchronously: the servers in this process must keep answering.
const run = promisify(execFile);
async function measure(url) {
  await run(process.execPath, ['scripts/bench-load.mjs', url, '1', connections]); // warm-up
  const { stdout } = await run(process.execPath, ['scripts/bench-load.mjs', url, seconds, connections]);
  return JSON.parse(stdout);
}

const results = {
  bare: await measure(`http://127.0.0.1:${barePort}/bare`),
  settings: await measure(`http://127.0.0.1:${server.port}/api/settings`),
};
const ratio = results.settings.rps / results.bare.rps;
const row = (name, r) => `${name.padEnd(18)} ${r.rps.toFixed(0).padStart(8)} req/s   p50 ${r.p50.toFixed(2).padStart(6)} ms   p99 ${r.p99.toFixed(2).padStart(6)} ms   (${r.requests} requests, ${r.errors} errors)`;
console.log(`\nLoopback, ${connections} connections, ${seconds} s each, Node ${process.version}`);
console.log(row('bare Hono route', results.bare));
console.log(row('GET /api/settings', results.settings));
console.log(`ratio settings/bare: ${(ratio * 100).toFixed(1)} % (budget >= 50 %) ${ratio >= 0.5 ? 'OK' : 'OVER BUDGET'}`);

await server.close();
bareServer.close();
rmSync(dataDir, { recursive: true, force: true });
process.exit(ratio >= 0.5 ? 0 : 1);
