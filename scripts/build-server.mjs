// Bundles the Node entry into dist-server/ (server.js and its start, node.js) (npm packages stay external).
import { build } from 'esbuild';
import { serverBuildOptions } from './server-build-options.mjs';

await build(serverBuildOptions);
