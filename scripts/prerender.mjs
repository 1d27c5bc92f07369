// Second half of `npm run build:web` (after `vite build`): renders the public pages to HTML
// (docs/decisions/015). Vite bundles web/prerender.tsx for Node into dist/prerender; each page is then
// written into dist/web with the public pages' own entry (web/public-entry.tsx) instead of the SPA's,
// and the SPA's shell is kept as app.html for every other route. Last, the text files get their Brotli and
// gzip copies (scripts/precompress.mjs).
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import react from '@vitejs/plugin-react';
import Beasties from 'beasties';
import { build } from 'vite';
import { precompress } from './precompress.mjs';

process.env.NODE_ENV = 'production';
const root = fileURLToPath(new URL('..', import.meta.url));
const webDir = join(root, 'web');
const webOut = join(root, 'dist/web');
const ssrOut = join(root, 'dist/prerender');

// Where Vite put the public entry, its chunks and its CSS. The manifest is no asset: it moves out of
// dist/web (and stays in dist/ for a second run on the same build).
const manifestPath = join(root, 'dist/vite-manifest.json');
if (existsSync(join(webOut, '.vite/manifest.json'))) renameSync(join(webOut, '.vite/manifest.json'), manifestPath);
rmSync(join(webOut, '.vite'), { recursive: true, force: true });
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));

/** The JavaScript and CSS files of a manifest entry and of everything it imports statically, in load order. */
function staticFiles(key, seen = new Set()) {
  if (seen.has(key)) return { js: [], css: [] };
  seen.add(key);
  const entry = manifest[key];
  if (!entry) throw new Error(`${key} is not in the Vite manifest`);
  const children = (entry.imports ?? []).map((child) => staticFiles(child, seen));
  return {
    js: [entry.file, ...children.flatMap((child) => child.js)],
    css: [...(entry.css ?? []), ...children.flatMap((child) => child.css)],
  };
}

const publicEntry = manifest['public-entry.tsx'];
if (!publicEntry?.isEntry) throw new Error('The Vite build has no public-entry.tsx entry');

await build({
  configFile: false,
  root: webDir,
  logLevel: 'warn',
  resolve: { alias: { '@': webDir } },
  plugins: [react()],
  build: { ssr: 'prerender.tsx', outDir: ssrOut, emptyOutDir: true, copyPublicDir: false, sourcemap: false },
});
const { renderPage, PAGE_PATHS } = await import(pathToFileURL(join(ssrOut, 'prerender.js')).href);

const escapeHtml = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

// A second run (e.g. `npm test` after `npm run build:web`) starts again from the shell, not the home page.
const shell = (() => {
  try {
    return readFileSync(join(webOut, 'app.html'), 'utf8');
  } catch {
    return readFileSync(join(webOut, 'index.html'), 'utf8');
  }
})();
if (!shell.includes('<div id="root"></div>')) throw new Error('dist/web/index.html has no empty <div id="root"></div>');
writeFileSync(join(webOut, 'app.html'), shell);

// The rules a page's first paint needs go into its head, and its stylesheet link to the end of its body
// (docs/decisions/047: the stylesheet was each page's render-blocking request). Beasties finds the rules the page's
// markup uses; only its <style> is taken, because its serialisation of the document differs from React's
// (`disabled` for `disabled=""`, …) and the islands must hydrate the very markup React wrote. Moving the
// link needs no script, which the CSP (script-src 'self') would refuse; the file stays whole for the SPA.
// Beasties cannot match some of Tailwind's selectors against the page and would drop them: `:where()` (the
// space-y utilities), `:has()`, and the button's `[&_svg]` rules (icon size and gap). Without them the first
// paint lays out differently and moves when the stylesheet arrives (Lighthouse counted 0.055 layout shift
// on '/'); the e2e test compares every element's box before and after.
const beasties = new Beasties({
  path: webOut,
  publicPath: '/',
  pruneSource: false,
  logLevel: 'warn',
  allowRules: [/_svg/, /:(has|where|is)\(/],
});

/** The rules of `html`'s first paint, as Beasties finds them for the stylesheets the document links. */
async function criticalCss(html) {
  // Without the <style> of the <noscript> parts (hide what needs JavaScript): Beasties would merge it into
  // the head's rules, for every visitor.
  const processed = await beasties.process(html.replace(/(<noscript>[\s\S]*?)<style>[\s\S]*?<\/style>/g, '$1'));
  const inline = processed.slice(0, processed.indexOf('</head>')).match(/<style>([\s\S]*?)<\/style>/)?.[1];
  if (!inline) throw new Error('Beasties found no critical CSS for a public page');
  return inline;
}

// The SPA's scripts, preloads and styles come out of the page's head; the public entry's go in.
const spaHead = /\s*<script type="module"[^>]*><\/script>|\s*<link rel="(?:modulepreload|stylesheet)"[^>]*>/g;
const entryFiles = staticFiles('public-entry.tsx');

for (const path of PAGE_PATHS) {
  const page = await renderPage(path);
  // The page's own chunk is preloaded too, so it does not wait for the entry to ask for it.
  const pageModule = Object.keys(manifest).find((key) => manifest[key].src === page.source);
  const pageFiles = pageModule ? staticFiles(pageModule) : { js: [], css: [] };
  const preloads = [...new Set([...entryFiles.js.slice(1), ...pageFiles.js])];
  const styles = [...new Set([...entryFiles.css, ...pageFiles.css])];
  if (styles.length === 0) throw new Error('The public entry has no stylesheet');
  const scripts = [
    `<script type="module" crossorigin src="/${publicEntry.file}"></script>`,
    ...preloads.map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`),
  ];
  const stylesheets = styles.map((file) => `<link rel="stylesheet" crossorigin href="/${file}">`);
  // A page for one visitor (the customer's order page, docs/decisions/067) stays out of search engines.
  const robots = page.noindex ? ['<meta name="robots" content="noindex">'] : [];
  /** The page with `head` added to its head and `bodyEnd` to the end of its body. */
  const assemble = (head, bodyEnd) =>
    shell
      .replace(spaHead, '')
      .replace('</head>', `    ${head.join('\n    ')}\n  </head>`)
      .replace('</body>', `${bodyEnd.map((tag) => `  ${tag}\n`).join('')}  </body>`)
      .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(page.title)}</title>`)
      .replace(/(<meta\s+name="description"\s+content=")[^"]*(")/, `$1${escapeHtml(page.description)}$2`)
      .replace(
        '<div id="root"></div>',
        `<div id="root" data-prerendered="${escapeHtml(page.path)}" data-fingerprint="${escapeHtml(page.fingerprint)}">${page.html}</div>`,
      );
  const css = await criticalCss(assemble([...robots, ...scripts, ...stylesheets], []));
  const html = assemble([...robots, ...scripts, `<style>${css}</style>`], stylesheets);
  writeFileSync(join(webOut, page.file), html);
  console.log(`prerendered ${path.padEnd(18)} → dist/web/${page.file} (${(html.length / 1024).toFixed(1)} KB)`);
}

// Brotli and gzip copies of the text files, pages included, for Node to send as they are (scripts/precompress.mjs).
const compressed = await precompress(webOut);
const total = (key) => compressed.reduce((sum, file) => sum + Math.min(file.plain, file[key]), 0);
const kb = (bytes) => `${(bytes / 1024).toFixed(0)} KB`;
console.log(`precompressed ${compressed.length} files: ${kb(total('plain'))} → ${kb(total('gzip'))} gzip, ${kb(total('br'))} brotli`);
