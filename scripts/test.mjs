// `npm test`: build the SPA, typecheck, bundle the Worker, then every suite in turn (unit + api, worker inside workerd
// on D1, the same on Turso over HTTP, e2e in Chromium), and close with one 'N passed, N failed' line over all of them.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';

const node = process.execPath;
const run = (label, args) => {
  console.log(`\n=== ${label} ===`);
  const result = spawnSync(node, args, { stdio: 'inherit' });
  return result.status === 0;
};

rmSync('test-results/vitest', { recursive: true, force: true });
mkdirSync('test-results/vitest', { recursive: true });

let ok = run('build the SPA', ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn']);
ok = ok && run('prerender the public pages', ['scripts/prerender.mjs']);
// The Worker's Env type is generated (npm run cf-typegen): it must match wrangler.toml and .dev.vars.example.
ok =
  ok &&
  run('the Worker types are up to date (wrangler types --check)', [
    'node_modules/wrangler/bin/wrangler.js',
    'types',
    'src/worker-env.d.ts',
    '--include-runtime=false',
    '--env-file=.dev.vars.example',
    '--check',
  ]);
ok = ok && run('typecheck', ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.json', '--noEmit']);
ok = ok && run('lint and format (biome check)', ['node_modules/@biomejs/biome/bin/biome', 'check', '--error-on-warnings', '.']);
ok = ok && run('the Worker bundles (wrangler deploy --dry-run)', ['node_modules/wrangler/bin/wrangler.js', 'deploy', '--dry-run', '--outdir', 'dist-worker']);
// The bundle's size is deterministic, so its budget (docs/decisions/035) is a test, not only a bench figure: one
// careless import (zod's `z` object carries every locale: +70 KiB) would otherwise go unnoticed.
ok = ok && run('the Worker bundle within its budget', ['scripts/check-worker-bundle.mjs', 'dist-worker/worker.js']);

const suites = [['unit', 'api'], ['worker'], ['worker-turso'], ['e2e']];
const only = process.argv.slice(2);
let passed = 0;
let failed = 0;
for (const projects of suites) {
  if (!ok) break;
  if (only.length > 0 && !projects.some((p) => only.includes(p))) continue;
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
  const suiteOk = run(`tests: ${projects.join(' + ')}`, args);
  try {
    const report = JSON.parse(readFileSync(outputFile, 'utf8'));
    passed += report.numPassedTests;
    failed += report.numFailedTests + (report.numTotalTests === 0 ? 1 : 0);
  } catch {
    failed += 1;
  }
  ok = suiteOk;
}
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(ok && failed === 0 ? 0 : 1);
