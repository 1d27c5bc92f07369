// `npm run dev`: the API on Node (rebuilt and restarted on change) and Vite with hot reload in front,
// proxying /api, /trpc and the REST paths to it.
import { spawn } from 'node:child_process';
import { context } from 'esbuild';
import { serverBuildOptions } from './server-build-options.mjs';

const apiPort = process.env.API_PORT ?? '8788';
const vitePort = process.env.VITE_PORT ?? '5173';

const builder = await context(serverBuildOptions);
await builder.rebuild();
await builder.watch();

const children = [
  spawn(process.execPath, ['--enable-source-maps', '--watch', 'dist-server/node.js'], {
    stdio: 'inherit',
    env: { ...process.env, PORT: apiPort },
  }),
  spawn(process.execPath, ['node_modules/vite/bin/vite.js', '--port', vitePort, '--strictPort'], {
    stdio: 'inherit',
    env: { ...process.env, VITE_PORT: vitePort, API_PROXY_TARGET: `http://127.0.0.1:${apiPort}` },
  }),
];
console.log(`\n  Open http://127.0.0.1:${vitePort} (API on http://127.0.0.1:${apiPort})\n`);

const stop = async () => {
  for (const child of children) child.kill('SIGTERM');
  await builder.dispose();
  process.exit(0);
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
for (const child of children) child.once('exit', (code) => code && code !== 0 && stop());
