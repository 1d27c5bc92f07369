// Vite builds the SPA in web/ into dist/web, which the Hono server (Node and Worker) serves.
// In development the API paths are proxied to the server (`npm run dev` starts both).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { routeTreeOptions } from './scripts/route-tree.mjs';
import { REST_ROOTS, SERVER_FILES, TRPC_ROOT } from './src/core/server-paths';
import { PDF_FONT_ASSET } from './src/platform/pdf-font-source';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { orderAppPrecache } from './scripts/order-app-precache.mjs';

const webDir = fileURLToPath(new URL('./web', import.meta.url));
const outDir = fileURLToPath(new URL('./dist/web', import.meta.url));

const apiTarget = process.env.API_PROXY_TARGET ?? 'http://127.0.0.1:8788';

// Everything the SPA does not render itself: tRPC, the REST surface of docs/architecture.md §4 (at the root:
// the dev server's API runs without API_BASE_PATH) and the server-generated files.
const proxiedPaths = [TRPC_ROOT, ...REST_ROOTS.map(({ root, exact }) => (exact ? root : `${root}/`)), ...SERVER_FILES];

// Regex keys (Vite treats keys starting with ^ as RegExp) so "/api" does not also catch "/apiary".
// changeOrigin stays false: the server's cross-site check compares Origin with Host.
const proxy = Object.fromEntries(
  proxiedPaths.map((path) => [
    `^${path.replace(/[.]/g, '\\.')}${path.endsWith('/') ? '' : '(?:[/?]|$)'}`,
    { target: apiTarget, changeOrigin: false, xfwd: true },
  ]),
);

export default defineConfig({
  root: webDir,
  // Keep Vite's cache out of web/ (the default is <root>/node_modules/.vite).
  cacheDir: fileURLToPath(new URL('./node_modules/.vite', import.meta.url)),
  resolve: {
    alias: { '@': webDir },
  },
  plugins: [
    // Must come before react(): it generates web/routeTree.gen.ts and splits each route file
    // into its own chunks (the public pages never download admin code).
    tanstackRouter({ ...routeTreeOptions, autoCodeSplitting: true }),
    react(),
    tailwindcss(),
    {
      // The PDF font's figures among the static assets, where the Worker reads them when it makes a PDF: in the
      // Worker bundle they were its largest part (docs/decisions/035 and 059, amended).
      name: 'kerstactie:pdf-font-asset',
      apply: 'build',
      generateBundle() {
        const source = readFileSync(fileURLToPath(new URL('./src/platform/pdf-fonts.generated.json', import.meta.url)), 'utf8');
        this.emitFile({ type: 'asset', fileName: PDF_FONT_ASSET.slice(1), source });
      },
    },
    // The member app's service worker (docs/decisions/069): web/order-sw.ts with its precache list, as
    // dist/web/order-sw.js. The order page registers it itself (scope /order) and order.html links the static
    // web/public/order.webmanifest, so the plugin injects nothing into the shell every page is made from.
    VitePWA({
      strategies: 'injectManifest',
      srcDir: '.',
      filename: 'order-sw.ts',
      injectRegister: false,
      manifest: false,
      injectManifest: {
        globPatterns: ['assets/**/*.{js,css,woff2}', 'favicon.svg', 'icons/order-*.png'],
        manifestTransforms: [orderAppPrecache(outDir)],
      },
    }),
  ],
  build: {
    outDir,
    emptyOutDir: true,
    // The prerender step reads where the public pages' entry and their chunks ended up.
    manifest: true,
    rolldownOptions: {
      // Two entries: the SPA (index.html → main.tsx) and the prerendered public pages' own, lighter
      // one (public-entry.tsx), which needs neither the router nor React Query nor the tRPC client.
      input: {
        app: fileURLToPath(new URL('./web/index.html', import.meta.url)),
        public: fileURLToPath(new URL('./web/public-entry.tsx', import.meta.url)),
      },
      output: {
        // What every page needs in few chunks: they compress better than a dozen small ones, and a phone
        // fetches them in fewer round trips (issue 15: at most 80 KB of gzipped JavaScript for /). React
        // is shared by both entries. "ui" holds the form controls and their class-name helpers, for the
        // forms of /contact, /order and the SPA (not /). The SPA's libraries stay out of the public
        // pages. "public" holds the small modules every prerendered page needs before its islands
        // hydrate (web/public-entry.tsx), which the SPA shares.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
            {
              name: 'ui',
              test: /node_modules[\\/](tailwind-merge|clsx|class-variance-authority|@radix-ui[\\/]react-(slot|compose-refs|label|primitive))[\\/]|[\\/]web[\\/](components[\\/](ui[\\/](button|input|textarea|label|alert)|form-field|form-feedback)|lib[\\/](utils|public-forms|server-refusal))\.tsx?$/,
            },
            // TanStack Form (issue 17) is left out: only the back-office forms use it, so it comes with their lazy chunks.
            { name: 'spa', test: /node_modules[\\/](@tanstack[\\/](?!(react-form|form-core|pacer-lite|devtools-event-client)[\\/])|@trpc[\\/])/ },
            {
              name: 'public',
              test: /[\\/]web[\\/](lib[\\/](site|settings|maintenance|permissions|trpc-fetch|use-hydrated)|routes[\\/]-public[\\/](island|public-auth-controls)|components[\\/]header-controls)\.tsx?$/,
            },
          ],
        },
      },
    },
  },
  server: {
    host: '127.0.0.1',
    port: Number(process.env.VITE_PORT ?? 5173),
    strictPort: true,
    proxy,
  },
  preview: {
    host: '127.0.0.1',
    proxy,
  },
});
