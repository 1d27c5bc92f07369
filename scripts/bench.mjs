// `npm run bench`: the real Node server on a database with 50,000 demo orders (`npm run seed:demo`), against
// bare Hono routes in the same process, on loopback, each ratio against its budget (docs/decisions/035):
//   GET /api/settings            vs a bare route sending the same bytes      >= 0.6×
//   signed-in GET /api/account/me vs a bare route doing one libSQL SELECT     >= 0.7×
//   an orders page (50 of 50,000, sorted by name, searching 'klant 49') vs the same one-SELECT route >= 0.25×
//   the CSV of every order       vs a bare SELECT * of them as JSON            <= 3× the time
//   the JSON the Management page loads (Chromium)                            <= 150 KB
// Then Lighthouse and the JavaScript weight of '/' and '/order' (scripts/lighthouse.mjs), the Worker's
// figures (scripts/bench-worker.mjs) and the mail budget (scripts/bench-mail.mjs). Budgets are reported;
// only the requests-per-second ratios decide the exit code. BENCH_ONLY picks sections, comma-separated:
// requests, pages, worker, mail (e.g. BENCH_ONLY=mail node scripts/bench.mjs after a build).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@libsql/client';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { startNodeServer } from '../dist-server/server.js';
import { createLocalClient } from '../src/db/libsql-local.ts';
import { formatReport, runLighthouse, withinBudgets } from './lighthouse.mjs';
import { benchWorker } from './bench-worker.mjs';
import { downloadTimes, managementJsonBytes } from './bench-scale.mjs';
import { benchMail } from './bench-mail.mjs';

const SECTIONS = ['requests', 'pages', 'worker', 'mail'];
const only = process.env.BENCH_ONLY ? process.env.BENCH_ONLY.split(',').map((name) => name.trim()) : SECTIONS;
const unknown = only.filter((name) => !SECTIONS.includes(name));
if (unknown.length > 0) throw new Error(`BENCH_ONLY: no section ${unknown.join(', ')} (there are ${SECTIONS.join(', ')})`);
const wants = (section) => only.includes(section);

/** One budget line; `atLeast` says whether the figure must reach the budget or stay under it. */
function budgetLine(label, value, budget, atLeast, format = (v) => `${v.toFixed(2)}×`) {
  const ok = atLeast ? value >= budget : value <= budget;
  console.log(`${label.padEnd(52)} ${format(value).padStart(10)}  (budget ${atLeast ? '>=' : '<='} ${format(budget)}) ${ok ? 'ok' : 'OVER BUDGET'}`);
  return ok;
}

let throughputOk = true;

if (wants('requests') || wants('pages')) {
  const seconds = process.env.BENCH_SECONDS ?? '4';
  const connections = process.env.BENCH_CONNECTIONS ?? '32';
  const orderCount = process.env.BENCH_ORDERS ?? '50000';
  const dataDir = mkdtempSync(join(tmpdir(), 'kerstactie-bench-'));
  const run = promisify(execFile);
  // The demo campaign first, the way a user would fill a database (docs/decisions/034): the server then opens it.
  const seeded = await run(process.execPath, ['scripts/seed-demo.mjs', '--orders', orderCount, '--tablers', '40'], {
    env: { ...process.env, DATA_DIR: dataDir },
  });
  const log = console.log;
  console.log = () => undefined; // keep the server's start-up lines out of the report
  const server = await startNodeServer({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', ADMIN_PASSWORD: 'bench-admin-password' });
  console.log = log;
  const base = `http://127.0.0.1:${server.port}`;
  log(seeded.stdout.trim());

  if (wants('requests')) {
    // Signed in as the admin, as the Management page is.
    const login = await fetch(`${base}/api/account/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: base },
      body: JSON.stringify({ username: 'admin', password: 'bench-admin-password' }),
    });
    if (!login.ok) throw new Error(`sign-in answered ${login.status}`);
    const cookies = login.headers.getSetCookie().map((line) => {
      const [pair] = line.split(';');
      const at = pair.indexOf('=');
      return { name: pair.slice(0, at), value: pair.slice(at + 1) };
    });
    const cookie = cookies.map(({ name, value }) => `${name}=${value}`).join('; ');
    const ordersPage = '/orders?page=1&per_page=50&sort=name&dir=asc&q=klant%2049';

    // Two bare routes (no middleware, no service, no database): a tiny answer, and the very bytes
    // /api/settings answers for a visitor, so that the budget compares our stack, not the payload size.
    // A third does one SELECT of a user row on the same database file through its own @libsql/client (the
    // baseline for signed-in calls the budgets were set against: the least a request that reads the database
    // can cost), a fourth the same SELECT through the server's own client (src/db/libsql-local.ts, for
    // information: how much of the ratio is the stack and how much the driver), and a fifth sends every order
    // as JSON (the baseline for the CSV export).
    const settingsBody = await (await fetch(`${base}/api/settings`)).text();
    const database = createClient({ url: `file:${join(dataDir, 'kerstactie.db')}` });
    const bare = new Hono();
    bare.get('/bare', (c) => c.json({ ok: true }));
    bare.get('/bare-same-body', (c) => c.body(settingsBody, 200, { 'Content-Type': 'application/json; charset=UTF-8' }));
    bare.get('/bare-select', async (c) => {
      const { rows } = await database.execute({ sql: 'SELECT id, username, email, status, created_at FROM users WHERE id = ?', args: [1] });
      return c.json(rows[0]);
    });
    const localDatabase = createLocalClient(join(dataDir, 'kerstactie.db'));
    bare.get('/bare-select-local', async (c) => {
      const { rows } = await localDatabase.execute({ sql: 'SELECT id, username, email, status, created_at FROM users WHERE id = ?', args: [1] });
      return c.json(rows[0]);
    });
    // The orders page's own statement (the rows of the page, each with the count of the matching orders),
    // written out by hand as the service builds it, through our client: the database's share of an orders
    // page, for information.
    const searchWhere = `(o.id IN (SELECT rowid FROM orders_fts WHERE orders_fts MATCH ?) OR o.tabler_id IN (SELECT id FROM tablers WHERE search_name LIKE ? ESCAPE '\\'))`;
    const searchArgs = ['"klant 49"', '%klant 49%'];
    bare.get('/bare-orders-page', async (c) => {
      const { rows } = await localDatabase.execute({
        sql: `SELECT o.*, t.name AS tabler_name, m.total FROM orders o JOIN (SELECT o.id, count(*) OVER () AS total FROM orders o WHERE ${searchWhere}) m ON m.id = o.id LEFT JOIN tablers t ON t.id = o.tabler_id ORDER BY o.search_text ASC, o.id ASC LIMIT 50 OFFSET 0`,
        args: searchArgs,
      });
      return c.json({ orders: rows, total: rows[0]?.total ?? 0 });
    });
    bare.get('/bare-orders-json', async (c) => c.json((await database.execute('SELECT * FROM orders')).rows));
    const bareServer = serve({ fetch: bare.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise((resolve) => bareServer.once('listening', resolve));
    const barePort = bareServer.address().port;

    // The load runs in a child process, asynchronously: the servers in this process must keep answering.
    // wrk (Debian package) when installed: it needs far less CPU than a Node client, so the server is
    // what gets measured; otherwise scripts/bench-load.mjs.
    const wrk = await run('wrk', ['--version']).then(
      () => true,
      (error) => error?.code !== 'ENOENT' && !!error?.stdout,
    );

    function toMs(text) {
      const m = /([\d.]+)(us|ms|s)/.exec(text);
      if (!m) return NaN;
      const n = Number(m[1]);
      return m[2] === 'us' ? n / 1000 : m[2] === 's' ? n * 1000 : n;
    }

    async function measureWithWrk(url, cookieHeader) {
      const header = cookieHeader ? ['-H', `Cookie: ${cookieHeader}`] : [];
      await run('wrk', ['-t1', `-c${connections}`, '-d1s', ...header, url]); // warm-up
      const { stdout } = await run('wrk', ['-t1', `-c${connections}`, `-d${seconds}s`, '--latency', ...header, url]);
      const requests = Number(/(\d+) requests in/.exec(stdout)?.[1] ?? 0);
      const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(stdout)?.[1] ?? 0);
      return {
        requests,
        errors: non2xx,
        rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1] ?? 0),
        p50: toMs(/^\s*50%\s+(\S+)/m.exec(stdout)?.[1] ?? ''),
        p99: toMs(/^\s*99%\s+(\S+)/m.exec(stdout)?.[1] ?? ''),
      };
    }

    /** Requests per second and latency of GETs to `url`, signed in when a cookie header is given. */
    async function measure(url, cookieHeader = '') {
      if (wrk) return measureWithWrk(url, cookieHeader);
      await run(process.execPath, ['scripts/bench-load.mjs', url, '1', connections, cookieHeader]); // warm-up
      const { stdout } = await run(process.execPath, ['scripts/bench-load.mjs', url, seconds, connections, cookieHeader]);
      return JSON.parse(stdout);
    }

    // This machine's speed drifts from minute to minute: alternate the targets over several rounds and compare
    // the medians, so all see the same conditions.
    const rounds = Number(process.env.BENCH_ROUNDS ?? '5');
    const bareUrl = `http://127.0.0.1:${barePort}`;
    const targets = {
      bare: { label: 'bare, tiny body', url: `${bareUrl}/bare` },
      bareSameBody: { label: 'bare, same body', url: `${bareUrl}/bare-same-body` },
      settings: { label: 'GET /api/settings', url: `${base}/api/settings` },
      bareSelect: { label: 'bare, one SELECT', url: `${bareUrl}/bare-select` },
      me: { label: 'me, signed in', url: `${base}/api/account/me`, cookie },
      ordersPage: { label: 'orders page', url: `${base}${ordersPage}`, cookie },
      bareSelectLocal: { label: 'bare, one SELECT (ours)', url: `${bareUrl}/bare-select-local` },
      bareOrdersPage: { label: "bare, the page's SELECT", url: `${bareUrl}/bare-orders-page` },
    };
    const runs = Object.fromEntries(Object.keys(targets).map((name) => [name, []]));
    for (let i = 0; i < rounds; i++) {
      for (const [name, target] of Object.entries(targets)) runs[name].push(await measure(target.url, target.cookie));
    }
    const median = (list, key) => [...list].sort((a, b) => a[key] - b[key])[Math.floor(list.length / 2)][key];
    /** Each round's ratio of two targets' requests per second. */
    const roundRatios = (numerator, denominator) => runs[numerator].map((run, i) => run.rps / runs[denominator][i].rps);
    /**
     * The median over the rounds of each round's ratio of two targets. Each ratio's two sides run one right
     * after the other in every round (the targets' order above), so a slower minute of this machine weighs on
     * both; a ratio of the two medians could take them from different minutes.
     */
    const ratio = (numerator, denominator) =>
      median(
        roundRatios(numerator, denominator).map((value) => ({ value })),
        'value',
      );
    const summarise = (list) => ({
      rps: median(list, 'rps'),
      p50: median(list, 'p50'),
      p99: median(list, 'p99'),
      requests: list.reduce((n, r) => n + r.requests, 0),
      errors: list.reduce((n, r) => n + r.errors, 0),
    });
    const results = Object.fromEntries(Object.entries(runs).map(([name, list]) => [name, summarise(list)]));
    for (const [name, list] of Object.entries(runs)) console.log(`${name} rounds: ${list.map((r) => r.rps.toFixed(0)).join(', ')} req/s`);
    for (const [numerator, denominator] of [
      ['settings', 'bareSameBody'],
      ['me', 'bareSelect'],
      ['ordersPage', 'bareSelect'],
    ]) {
      console.log(
        `${numerator} / ${denominator} rounds: ${roundRatios(numerator, denominator)
          .map((value) => value.toFixed(2))
          .join(', ')}`,
      );
    }
    const row = (name, r) =>
      `${name.padEnd(18)} ${r.rps.toFixed(0).padStart(8)} req/s   p50 ${r.p50.toFixed(2).padStart(6)} ms   p99 ${r.p99.toFixed(2).padStart(6)} ms   (${r.requests} requests, ${r.errors} errors)`;
    console.log(
      `\nLoopback, ${connections} connections, ${rounds} alternating rounds of ${seconds} s, medians (ratios: the median of each round's ratio), Node ${process.version}, load from ${wrk ? 'wrk' : 'scripts/bench-load.mjs'}, ${orderCount} orders`,
    );
    for (const [name, target] of Object.entries(targets)) console.log(row(target.label, results[name]));

    console.log('');
    throughputOk = [
      budgetLine('GET /api/settings / bare with the same body', ratio('settings', 'bareSameBody'), 0.6, true),
      budgetLine('signed-in GET /api/account/me / bare one SELECT', ratio('me', 'bareSelect'), 0.7, true),
      budgetLine(`orders page (50 of ${orderCount}, name, 'klant 49') / one SELECT`, ratio('ordersPage', 'bareSelect'), 0.25, true),
    ].every(Boolean);
    console.log(
      `${'GET /api/settings / bare with a tiny body'.padEnd(52)} ${ratio('settings', 'bare').toFixed(2).padStart(9)}×  (for information: sends ${settingsBody.length} bytes instead of 11)`,
    );
    for (const [name, label] of [
      ['me', 'signed-in GET /api/account/me'],
      ['ordersPage', 'orders page'],
    ]) {
      console.log(
        `${`${label} / bare one SELECT through our client`.padEnd(52)} ${ratio(name, 'bareSelectLocal').toFixed(2).padStart(9)}×  (for information: the same driver on both sides)`,
      );
    }
    console.log(
      `${"orders page / bare route running the page's SELECT".padEnd(52)} ${ratio('ordersPage', 'bareOrdersPage').toFixed(2).padStart(9)}×  (for information: the share of our stack above the search itself)`,
    );
    console.log(
      `${"bare route running the page's SELECT / one SELECT".padEnd(52)} ${ratio('bareOrdersPage', 'bareSelect').toFixed(2).padStart(9)}×  (for information: the page's statement alone, with no stack around it, against the budget's baseline)`,
    );
    if (!wrk) {
      // The Node client shares the two cores with the server and tops out near the bare route's rate, so the
      // rows come out alike: the ratios then say little more than "within budget".
      console.log('note: without wrk the load generator, not the server, limits these rates; apt-get install wrk for real figures');
    }

    // The export and the page's download, once the load is over.
    const [csv, json] = await downloadTimes([{ url: `${base}/orders/export.csv`, headers: { cookie } }, { url: `${bareUrl}/bare-orders-json` }]);
    budgetLine(
      `CSV of ${orderCount} orders (${(csv.ms / 1000).toFixed(2)} s) / bare SELECT * as JSON (${(json.ms / 1000).toFixed(2)} s)`,
      csv.ms / json.ms,
      3,
      false,
    );
    try {
      const management = await managementJsonBytes(base, cookies);
      budgetLine(`JSON the Management page loads (${management.requests} calls)`, management.bytes / 1000, 150, false, (v) => `${v.toFixed(0)} KB`);
    } catch (error) {
      console.log(`The Management page could not be measured: ${error instanceof Error ? error.message : error}`);
    }
    bareServer.close();
    database.close();
    localDatabase.close();
  }

  if (wants('pages')) {
    // The page-quality figures, on the same server once the load is over. A missed budget is printed, not
    // fatal: scores under simulated throttling move by a few points from run to run on this machine.
    console.log('');
    try {
      const pages = await runLighthouse(`http://127.0.0.1:${server.port}`, ['/', '/order']);
      console.log(formatReport(pages));
      console.log(withinBudgets(pages) ? '\nPage budgets: all ok' : '\nPage budgets: OVER BUDGET (see the marked rows above)');
    } catch (error) {
      console.log(`Lighthouse could not run: ${error instanceof Error ? error.message : error}`);
    }
  }

  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
}

if (wants('worker')) {
  // The Worker's bundle and first-request figures (docs/decisions/035), reported like the page budgets.
  console.log('');
  try {
    await benchWorker();
  } catch (error) {
    console.log(`The Worker figures could not be measured: ${error instanceof Error ? error.message : error}`);
  }
}

// The mail budget (docs/decisions/053): 2,000 queued messages on their own server and data folder.
if (wants('mail')) {
  console.log('');
  try {
    await benchMail(budgetLine);
  } catch (error) {
    console.log(`The mail figures could not be measured: ${error instanceof Error ? error.message : error}`);
  }
}

process.exit(throughputOk ? 0 : 1);
