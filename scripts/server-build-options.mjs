// esbuild options for the Node entry, shared by `npm run build:server` and `npm run dev`.
export const serverBuildOptions = {
  entryPoints: ['src/node.ts'],
  outfile: 'dist-server/node.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
};
