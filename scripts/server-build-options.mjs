// esbuild options for the Node entry, shared by `npm run build:server` and `npm run dev`: `server.js` is the server
// (src/node.ts), `node.js` the small start that checks the Node version first and then loads it (src/node-launcher.ts).
export const serverBuildOptions = {
  entryPoints: { server: 'src/node.ts', node: 'src/node-launcher.ts' },
  outdir: 'dist-server',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
};
