// `node scripts/check-worker-bundle.mjs <worker.js>`: fails when the Worker bundle's gzip size is over its
// budget (the same figure and budget `npm run bench` prints). Run by `npm test` after the dry-run build.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { BUNDLE_BUDGET_KIB } from './bench-worker.mjs';

const file = process.argv[2] ?? 'dist-worker/worker.js';
const kib = gzipSync(readFileSync(file), { level: 9 }).length / 1024;
console.log(`${file}: ${kib.toFixed(0)} KiB gzip (budget <= ${BUNDLE_BUDGET_KIB} KiB)`);
if (kib > BUNDLE_BUDGET_KIB) {
  console.error('The Worker bundle is over its budget: look for a new import that drags a whole library in.');
  process.exit(1);
}
