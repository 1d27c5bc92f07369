// Second half of `npm run build:web` (after `vite build`): renders the five public pages to HTML
// (issue 5 item 3). Vite bundles web/prerender.tsx for Node into dist/prerender; each page is then
// written into dist/web next to the SPA shell, which is kept as app.html for every other route.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'vite';

const root = fileURLToPath(new URL('..', import.meta.url));
const webOut = join(root, 'dist/web');
const ssrOut = join(root, 'dist/prerender');
const require = createRequire(import.meta.url);

// The router picks its server or browser code paths by a build-time constant. The prerender must
// render the very tree the browser hydrates, so it takes the browser's value.
const routerCore = dirname(require.resolve('@tanstack/router-core/package.json'));

await build({
  configFile: join(root, 'vite.config.ts'),
  logLevel: 'warn',
  resolve: { alias: { '@tanstack/router-core/isServer': join(routerCore, 'dist/esm/isServer/client.js') } },
  ssr: { noExternal: true },
  build: { ssr: 'prerender.tsx', outDir: ssrOut, emptyOutDir: true, copyPublicDir: false, sourcemap: false },
});

// The router's browser code registers itself on `self` (the window); Node has no such global.
globalThis.self ??= globalThis;
const { renderPage, PRERENDERED_PAGES } = await import(pathToFileURL(join(ssrOut, 'prerender.js')).href);

const escapeHtml = (text) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const shellPath = join(webOut, 'index.html');
// A second run (e.g. `npm test` after `npm run build:web`) starts again from the shell, not the home page.
const shell = (() => {
  try {
    return readFileSync(join(webOut, 'app.html'), 'utf8');
  } catch {
    return readFileSync(shellPath, 'utf8');
  }
})();
if (!shell.includes('<div id="root"></div>')) throw new Error('dist/web/index.html has no empty <div id="root"></div>');
writeFileSync(join(webOut, 'app.html'), shell);

for (const { path } of PRERENDERED_PAGES) {
  const page = await renderPage(path);
  const html = shell
    .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(page.title)}</title>`)
    .replace(/(<meta\s+name="description"\s+content=")[^"]*(")/, `$1${escapeHtml(page.description)}$2`)
    .replace(
      '<div id="root"></div>',
      `<div id="root" data-prerendered="${escapeHtml(page.path)}" data-fingerprint="${escapeHtml(page.fingerprint)}">${page.html}</div>`,
    );
  writeFileSync(join(webOut, page.file), html);
  console.log(`prerendered ${path.padEnd(18)} → dist/web/${page.file} (${(html.length / 1024).toFixed(1)} KB)`);
}
