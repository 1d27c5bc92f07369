// `npm test`: build the SPA, typecheck, lint, bundle the Worker and run every suite (unit + api, worker inside workerd
// on D1, the same on Turso over HTTP, e2e in Chromium), closing with one 'N passed, N failed' line over all suites.
// The steps run in lanes side by side (docs/decisions/063): the browser tests, the longest lane and mostly waiting on
// a page, start as soon as the SPA is built; everything else runs beside them at a lower CPU priority, so it fills
// the cores the browser leaves idle without slowing it down. `npm test -- e2e` runs only the suites named.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { setPriority } from 'node:os';
import { delimiter, relative, resolve } from 'node:path';

const node = process.execPath;
const only = process.argv.slice(2);
const started = performance.now();
const BACKGROUND = 10;
const env = {
  ...process.env,
  // As `npm run` does, so the typecheck command below runs as it does there.
  PATH: `${resolve('node_modules/.bin')}${delimiter}${process.env.PATH}`,
  ...(process.stdout.isTTY ? { FORCE_COLOR: '1' } : {}),
};

/**
 * One step: its output is held and printed whole when it ends, so lanes running together do not interleave.
 * `nice` lowers its CPU priority (and its children's, who inherit it).
 */
function step(label, command, args, { nice = 0, shell = false } = {}) {
  const since = performance.now();
  console.log(`--- started: ${label} (at ${seconds(started)} s)`);
  return new Promise((done) => {
    const child = spawn(command, args, { env, shell, stdio: ['ignore', 'pipe', 'pipe'] });
    if (nice > 0 && child.pid) setPriority(child.pid, nice);
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('error', (error) => output.push(Buffer.from(`${error}\n`)));
    child.on('close', (code) => {
      console.log(`\n=== ${label}: ${code === 0 ? 'ok' : 'FAILED'} in ${seconds(since)} s ===`);
      process.stdout.write(Buffer.concat(output));
      done(code === 0);
    });
  });
}

function seconds(since) {
  return Math.round((performance.now() - since) / 1000);
}

/** Runs steps one after the other, all of them even after a failure; true when every one passed. */
async function inTurn(steps) {
  let ok = true;
  for (const next of steps) ok = (await next()) && ok;
  return ok;
}

rmSync('test-results/vitest', { recursive: true, force: true });
mkdirSync('test-results/vitest', { recursive: true });

let passed = 0;
let failed = 0;
const durations = [];
/** The failed tests by name, repeated after the closing line: a long log is often read from its end only. */
const failures = [];

/** One vitest run over the given projects, with its JSON report counted into the closing line. */
async function suite(projects, options) {
  if (only.length > 0 && !projects.some((p) => only.includes(p))) return true;
  const name = projects.join('-');
  const outputFile = `test-results/vitest/${name}.json`;
  const args = [
    'node_modules/vitest/vitest.mjs',
    'run',
    ...projects.flatMap((p) => ['--project', p]),
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${outputFile}`,
  ];
  const since = performance.now();
  const ok = await step(`tests: ${projects.join(' + ')}`, node, args, options);
  durations.push(`${name} ${seconds(since)} s`);
  try {
    const report = JSON.parse(readFileSync(outputFile, 'utf8'));
    passed += report.numPassedTests;
    failed += report.numFailedTests + (report.numTotalTests === 0 ? 1 : 0);
    for (const file of report.testResults) {
      for (const test of file.assertionResults) {
        if (test.status !== 'failed') continue;
        const why = (test.failureMessages[0] ?? '').split('\n')[0].slice(0, 300);
        failures.push(`${name}: ${relative(process.cwd(), file.name)} > ${test.fullName}\n    ${why}`);
      }
      if (file.assertionResults.length === 0 && file.status === 'failed') {
        failures.push(`${name}: ${relative(process.cwd(), file.name)}\n    ${(file.message ?? '').split('\n')[0].slice(0, 300)}`);
      }
    }
  } catch {
    failed += 1;
  }
  return ok;
}

/** Suites that cannot run because the SPA did not build: one failure each. */
function unbuilt(...suites) {
  for (const projects of suites) if (only.length === 0 || projects.some((p) => only.includes(p))) failed += 1;
  return false;
}

const background = { nice: BACKGROUND };
const packageScripts = JSON.parse(readFileSync('package.json', 'utf8')).scripts;

const built = inTurn([
  () => step('build the SPA', node, ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn']),
  () => step('prerender the public pages', node, ['scripts/prerender.mjs']),
]);

const lanes = [
  // The browser tests: Chromium against the built SPA, at the normal priority.
  built.then((ok) => (ok ? suite(['e2e']) : unbuilt(['e2e']))),
  // Node only, no build needed: from the start.
  suite(['unit', 'api'], background),
  // workerd serves the built SPA's assets. One after the other: each starts a workerd per test file.
  built.then((ok) =>
    ok
      ? inTurn([() => suite(['worker', 'worker-own-db'], background), () => suite(['worker-turso', 'worker-turso-own-db'], background)])
      : unbuilt(['worker'], ['worker-turso']),
  ),
  // After the build, which writes web/routeTree.gen.ts as the typecheck's route-tree step does.
  built.then((ok) =>
    inTurn([
      // The Worker's Env type is generated (npm run cf-typegen): it must match wrangler.toml and .dev.vars.example.
      () =>
        step(
          'the Worker types are up to date (wrangler types --check)',
          node,
          ['node_modules/wrangler/bin/wrangler.js', 'types', 'src/worker-env.d.ts', '--include-runtime=false', '--env-file=.dev.vars.example', '--check'],
          background,
        ),
      // `npm run typecheck`'s own command, so the way the project is type-checked is written once.
      () => step('typecheck (npm run typecheck)', packageScripts.typecheck, [], { ...background, shell: true }),
      () => step('lint and format (biome check)', node, ['node_modules/@biomejs/biome/bin/biome', 'check', '--error-on-warnings', '.'], background),
      // The bundle needs dist/web for its assets.
      async () =>
        ok &&
        (await step(
          'the Worker bundles (wrangler deploy --dry-run)',
          node,
          ['node_modules/wrangler/bin/wrangler.js', 'deploy', '--dry-run', '--outdir', 'dist-worker'],
          background,
        )) &&
        // The bundle's size is deterministic, so its budget (docs/decisions/035) is a test, not only a bench figure: one
        // careless import (zod's `z` object carries every locale: +70 KiB) would otherwise go unnoticed.
        (await step('the Worker bundle within its budget', node, ['scripts/check-worker-bundle.mjs', 'dist-worker/worker.js'], background)),
    ]),
  ),
];

const ok = (await Promise.all([built, ...lanes])).every(Boolean);
console.log(`\nSuites: ${durations.join(', ')}; all steps ${seconds(started)} s.`);
if (failures.length > 0) console.log(`\nFailed:\n${failures.join('\n')}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(ok && failed === 0 ? 0 : 1);
