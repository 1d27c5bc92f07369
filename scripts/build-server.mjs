// Bundles the Node entry into dist-server/node.js (npm packages stay external).
import { build } from 'esbuild';

await build({
  entryPoints: ['src/node.ts'],
  outfile: 'dist-server/node.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});
