// esbuild options for bundles that run on Node (npm packages stay external), shared by the server, the backup and
// key-rotation commands and `npm run dev`.
export const nodeBundleOptions = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
};

// The server: `server.js` is src/node.ts, `node.js` the small start that checks the Node version first and then
// loads it (src/node-launcher.ts, docs/decisions/060).
export const serverBuildOptions = {
  ...nodeBundleOptions,
  entryPoints: { server: 'src/node.ts', node: 'src/node-launcher.ts' },
  outdir: 'dist-server',
};
