// `npm run bench`: the real Node server on a database with 50,000 demo orders (`npm run seed:demo`), against
// bare Hono routes in the same process, on loopback, each ratio against its budget (docs/decisions/035):
//   GET /api/settings            vs a bare route sending the same bytes      >= 0.6×
//   signed-in GET /api/account/me vs a bare route doing one libSQL SELECT     >= 0.7×
//   the orders page (docs/decisions/072): the first page, and 'klant 49' matching none, vs the same one-SELECT route >= 0.25×;
//     every sort both ways, a deep page, a search matching many, filters                                   >= 0.1×
//   GET /orders/totals           vs a bare SELECT * of the club's orders as JSON  <= 0.1× the time
//   (section `clubs`: the orders page and totals again with 20 clubs of 2,500 orders on one database)
//   the CSV of every order       vs a bare SELECT * of them as JSON            <= 3× the time
//   the JSON the Management page loads (Chromium)                            <= 150 KB
// Then Lighthouse and the JavaScript weight of '/' and '/order' (scripts/lighthouse.mjs), the Worker's
// figures (scripts/bench-worker.mjs) and the mail budget (scripts/bench-mail.mjs). Budgets are reported;
// only the requests-per-second ratios decide the exit code. BENCH_ONLY picks sections, comma-separated:
// requests, clubs, pages, worker, mail (e.g. BENCH_ONLY=mail node scripts/bench.mjs after a build).
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

const SECTIONS = ['requests', 'clubs', 'pages', 'worker', 'mail'];
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

const run = promisify(execFile);
const seconds = process.env.BENCH_SECONDS ?? '4';
const connections = process.env.BENCH_CONNECTIONS ?? '32';
// This machine's speed drifts from minute to minute: the targets alternate over several rounds and the
// medians are compared, so all see the same conditions.
const rounds = Number(process.env.BENCH_ROUNDS ?? '5');
// wrk (Debian package) when installed: it needs far less CPU than a Node client, so the server is what gets
// measured; otherwise scripts/bench-load.mjs. The load runs in a child process, asynchronously: the servers
// in this process must keep answering.
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

const median = (list, key) => [...list].sort((a, b) => a[key] - b[key])[Math.floor(list.length / 2)][key];

/**
 * Every target once per round, `rounds` times. `ratio` is the median over the rounds of each round's ratio of
 * two targets: a slower minute of this machine weighs on both sides of it, where a ratio of the two medians
 * could take them from different minutes.
 */
async function measureRounds(targets) {
  const runs = Object.fromEntries(Object.keys(targets).map((name) => [name, []]));
  for (let i = 0; i < rounds; i++) {
    for (const [name, target] of Object.entries(targets)) runs[name].push(await measure(target.url, target.cookie));
  }
  const roundRatios = (numerator, denominator) => runs[numerator].map((r, i) => r.rps / runs[denominator][i].rps);
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
  return { runs, results, roundRatios, ratio };
}

const row = (name, r) =>
  `${name.padEnd(34)} ${r.rps.toFixed(0).padStart(8)} req/s   p50 ${r.p50.toFixed(2).padStart(7)} ms   p99 ${r.p99.toFixed(2).padStart(7)} ms   (${r.requests} requests, ${r.errors} errors)`;

/**
 * A fresh data folder with the demo campaign, `clubs` clubs of `perClub` orders each, and the real server on
 * it. The first club (the admin's, on any host) is seeded last, so its orders hold the newest ids and lie
 * among the other clubs' rows in no helpful order.
 */
async function seededServer(clubs, perClub) {
  const dataDir = mkdtempSync(join(tmpdir(), 'kerstactie-bench-'));
  let summary = '';
  for (let club = clubs; club >= 1; club--) {
    const seeded = await run(
      process.execPath,
      ['scripts/seed-demo.mjs', '--orders', String(perClub), '--tablers', '40', '--club', String(club), '--seed', String(club)],
      { env: { ...process.env, DATA_DIR: dataDir } },
    );
    if (club === 1) summary = seeded.stdout.trim();
  }
  const log = console.log;
  console.log = () => undefined; // keep the server's start-up lines out of the report
  const server = await startNodeServer({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', ADMIN_PASSWORD: 'bench-admin-password' });
  console.log = log;
  if (clubs > 1) log(`${clubs} clubs of ${perClub.toLocaleString('en')} demo orders each; the first club's:`);
  log(summary);
  return { server, dataDir, base: `http://127.0.0.1:${server.port}` };
}

/** Signed in as the first club's admin, as the Management page is: the cookies, and as one header. */
async function signIn(base) {
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
  return { cookies, cookie: cookies.map(({ name, value }) => `${name}=${value}`).join('; ') };
}

/** The bare routes the budgets are set against, on the server's database file, each answering one statement. */
async function bareServer(dataDir, extra = () => undefined) {
  const database = createClient({ url: `file:${join(dataDir, 'kerstactie.db')}` });
  const bare = new Hono();
  // One SELECT of a user row through its own @libsql/client: the least a request that reads the database
  // can cost, the baseline the requests-per-second budgets were set against.
  bare.get('/bare-select', async (c) => {
    const { rows } = await database.execute({ sql: 'SELECT id, username, email, status, created_at FROM users WHERE id = ?', args: [1] });
    return c.json(rows[0]);
  });
  // Every order of the first club as JSON: the baseline of the CSV export and of the totals.
  bare.get('/bare-orders-json', async (c) => c.json((await database.execute('SELECT * FROM orders WHERE club_id = 1')).rows));
  extra(bare, database);
  const server = serve({ fetch: bare.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    close() {
      server.close();
      database.close();
    },
  };
}

/**
 * The shapes of the treasurer's orders page (docs/decisions/072), each with its budget against the one-SELECT
 * route: the first page, a deep page (90% of the way down) as it comes and sorted, every sort both ways, a
 * search matching many orders and one matching none, and filters.
 */
function orderPageShapes(perClub) {
  const deep = Math.max(1, Math.floor((perClub / 50) * 0.9));
  const shapes = [
    { label: 'first page', query: 'page=1&per_page=50', budget: 0.25 },
    { label: `page ${deep}`, query: `page=${deep}&per_page=50`, budget: 0.1 },
    { label: `page ${deep} by amount, desc`, query: `page=${deep}&per_page=50&sort=amount&dir=desc`, budget: 0.1 },
    { label: `page ${deep} by tabler, asc`, query: `page=${deep}&per_page=50&sort=tabler_name&dir=asc`, budget: 0.1 },
  ];
  for (const sort of ['created_at', 'reference', 'name', 'amount', 'paid', 'tabler_name']) {
    for (const dir of ['asc', 'desc']) shapes.push({ label: `by ${sort}, ${dir}`, query: `page=1&per_page=50&sort=${sort}&dir=${dir}`, budget: 0.1 });
  }
  shapes.push(
    { label: "search 'jansen' (many)", query: 'page=1&per_page=50&q=jansen', budget: 0.1 },
    { label: "search 'jansen' by amount, page 3", query: 'page=3&per_page=50&sort=amount&dir=desc&q=jansen', budget: 0.1 },
    { label: "by name, 'klant 49' (none)", query: 'page=1&per_page=50&sort=name&dir=asc&q=klant%2049', budget: 0.25 },
    { label: 'unpaid', query: 'page=1&per_page=50&paid=false', budget: 0.1 },
    {
      label: `unpaid, page ${Math.max(1, Math.floor(deep / 4))}, by name`,
      query: `page=${Math.max(1, Math.floor(deep / 4))}&per_page=50&paid=false&sort=name&dir=asc`,
      budget: 0.1,
    },
    { label: 'overdue', query: 'page=1&per_page=50&overdue=true', budget: 0.1 },
  );
  return shapes;
}

/**
 * The orders page's shapes and the totals on a server of `clubs` clubs of `perClub` orders, signed in as the
 * first club's admin. Prints the budget lines; answers whether every requests-per-second ratio is within.
 */
async function benchOrders({ base, cookie, bare, clubs, perClub, extraTargets = {} }) {
  const shapes = orderPageShapes(perClub);
  // A signed-in request that does nothing else: the floor every orders page stands on (docs/decisions/075).
  const floor = 'me' in extraTargets ? 'me' : 'signedIn';
  const targets = {
    bareSelect: { label: 'bare, one SELECT', url: `${bare.url}/bare-select` },
    ...(floor === 'signedIn' ? { signedIn: { label: 'me, signed in', url: `${base}/api/account/me`, cookie } } : {}),
    ...extraTargets,
    ...Object.fromEntries(shapes.map((shape, i) => [`orders${i}`, { label: `orders: ${shape.label}`, url: `${base}/orders?${shape.query}`, cookie }])),
  };
  const measured = await measureRounds(targets);
  const where = clubs === 1 ? `${perClub.toLocaleString('en')} orders` : `${clubs} clubs of ${perClub.toLocaleString('en')} orders`;
  console.log(
    `\nLoopback, ${connections} connections, ${rounds} alternating rounds of ${seconds} s, medians (ratios: the median of each round's ratio), Node ${process.version}, load from ${wrk ? 'wrk' : 'scripts/bench-load.mjs'}, ${where}`,
  );
  for (const [name, target] of Object.entries(targets)) console.log(row(target.label, measured.results[name]));
  console.log('');
  const ok = shapes.map((shape, i) => budgetLine(`orders page, ${shape.label} / one SELECT`, measured.ratio(`orders${i}`, 'bareSelect'), shape.budget, true));
  console.log(
    `${'orders page, first page / signed-in GET /api/account/me'.padEnd(52)} ${measured.ratio('orders0', floor).toFixed(2).padStart(9)}×  (for information: against the floor of a signed-in request)`,
  );
  // The totals once the load is over, timed against every order of the club as JSON (docs/decisions/072).
  const [totals, json] = await downloadTimes([{ url: `${base}/orders/totals`, headers: { cookie } }, { url: `${bare.url}/bare-orders-json` }], 5);
  budgetLine(`totals (${totals.ms.toFixed(1)} ms) / SELECT * (${json.ms.toFixed(0)} ms) of ${perClub.toLocaleString('en')}`, totals.ms / json.ms, 0.1, false);
  return { ok: ok.every(Boolean), measured };
}

if (wants('requests') || wants('pages')) {
  const orderCount = Number(process.env.BENCH_ORDERS ?? '50000');
  // The demo campaign first, the way a user would fill a database (docs/decisions/034): the server then opens it.
  const { server, dataDir, base } = await seededServer(1, orderCount);

  if (wants('requests')) {
    const { cookies, cookie } = await signIn(base);
    // Bare routes (no middleware, no service): a tiny answer, and the very bytes /api/settings answers for a
    // visitor, so that the budget compares our stack, not the payload size; the one SELECT through the
    // server's own client (src/db/libsql-local.ts, for information: how much of a ratio is the stack and how
    // much the driver); and the statement of an orders page searched by name, written out by hand.
    const settingsBody = await (await fetch(`${base}/api/settings`)).text();
    const localDatabase = createLocalClient(join(dataDir, 'kerstactie.db'));
    const bare = await bareServer(dataDir, (app) => {
      app.get('/bare', (c) => c.json({ ok: true }));
      app.get('/bare-same-body', (c) => c.body(settingsBody, 200, { 'Content-Type': 'application/json; charset=UTF-8' }));
      app.get('/bare-select-local', async (c) => {
        const { rows } = await localDatabase.execute({ sql: 'SELECT id, username, email, status, created_at FROM users WHERE id = ?', args: [1] });
        return c.json(rows[0]);
      });
    });
    const { ok, measured } = await benchOrders({
      base,
      cookie,
      bare,
      clubs: 1,
      perClub: orderCount,
      extraTargets: {
        bare: { label: 'bare, tiny body', url: `${bare.url}/bare` },
        bareSameBody: { label: 'bare, same body', url: `${bare.url}/bare-same-body` },
        settings: { label: 'GET /api/settings', url: `${base}/api/settings` },
        me: { label: 'me, signed in', url: `${base}/api/account/me`, cookie },
        bareSelectLocal: { label: 'bare, one SELECT (ours)', url: `${bare.url}/bare-select-local` },
      },
    });
    const { ratio } = measured;
    throughputOk =
      [
        budgetLine('GET /api/settings / bare with the same body', ratio('settings', 'bareSameBody'), 0.6, true),
        budgetLine('signed-in GET /api/account/me / bare one SELECT', ratio('me', 'bareSelect'), 0.7, true),
      ].every(Boolean) && ok;
    console.log(
      `${'GET /api/settings / bare with a tiny body'.padEnd(52)} ${ratio('settings', 'bare').toFixed(2).padStart(9)}×  (for information: sends ${settingsBody.length} bytes instead of 11)`,
    );
    console.log(
      `${'signed-in GET /api/account/me / bare one SELECT through our client'.padEnd(52)} ${ratio('me', 'bareSelectLocal').toFixed(2).padStart(9)}×  (for information: the same driver on both sides)`,
    );
    if (!wrk) {
      // The Node client shares the two cores with the server and tops out near the bare route's rate, so the
      // fast rows come out alike: their ratios then say little more than "within budget".
      console.log('note: without wrk the load generator, not the server, limits these rates; apt-get install wrk for real figures');
    }

    // The export and the page's download, once the load is over.
    const [csv, json] = await downloadTimes([{ url: `${base}/orders/export.csv`, headers: { cookie } }, { url: `${bare.url}/bare-orders-json` }]);
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
    bare.close();
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

// The same orders budgets with many clubs on one database (docs/decisions/072): 20 clubs of 2,500 orders,
// measured as the first club's admin.
if (wants('clubs')) {
  console.log('');
  const clubs = Number(process.env.BENCH_CLUBS ?? '20');
  const perClub = Number(process.env.BENCH_CLUB_ORDERS ?? '2500');
  const { server, dataDir, base } = await seededServer(clubs, perClub);
  const { cookie } = await signIn(base);
  const bare = await bareServer(dataDir);
  const { ok } = await benchOrders({ base, cookie, bare, clubs, perClub });
  throughputOk &&= ok;
  bare.close();
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
