// The TanStack Router file routes' generator settings, in one place: the Vite plugin (vite.config.ts)
// generates web/routeTree.gen.ts on every build and dev start with them, and `node scripts/route-tree.mjs`
// (run by `npm run typecheck`) writes it without a build, so a fresh clone type-checks.
import { fileURLToPath, pathToFileURL } from 'node:url';

export const routeTreeOptions = {
  target: 'react',
  // Absolute paths: the plugin resolves relative ones against Vite's `root` (web/).
  routesDirectory: fileURLToPath(new URL('../web/routes', import.meta.url)),
  generatedRouteTree: fileURLToPath(new URL('../web/routeTree.gen.ts', import.meta.url)),
  quoteStyle: 'double',
};

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { Generator, getConfig } = await import('@tanstack/router-generator');
  const root = fileURLToPath(new URL('..', import.meta.url));
  await new Generator({ config: getConfig(routeTreeOptions, root), root }).run();
}
