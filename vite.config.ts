// Vite builds the SPA in web/ into dist/web, which the Hono server (Node and Worker) serves.
// In development the API paths are proxied to the server (`npm run dev` starts both).
import { fileURLToPath } from "node:url";
import tailwindcss from "@tailwindcss/vite";
import { tanstackRouter } from "@tanstack/router-plugin/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

const webDir = fileURLToPath(new URL("./web", import.meta.url));
const outDir = fileURLToPath(new URL("./dist/web", import.meta.url));

const apiTarget = process.env.API_PROXY_TARGET ?? "http://127.0.0.1:8788";

// Everything the SPA does not render itself: tRPC, the REST surface of DESIGN §4 and the
// server-generated files.
const proxiedPaths = ["/api", "/trpc", "/tablers", "/orders", "/contact/send", "/sitemap.xml", "/robots.txt"];

// Regex keys (Vite treats keys starting with ^ as RegExp) so "/api" does not also catch "/apiary".
// changeOrigin stays false: the server's cross-site check compares Origin with Host.
const proxy = Object.fromEntries(
  proxiedPaths.map((path) => [
    `^${path.replace(/[.]/g, "\\.")}(?:[/?]|$)`,
    { target: apiTarget, changeOrigin: false, xfwd: true },
  ]),
);

export default defineConfig({
  root: webDir,
  // Keep Vite's cache out of web/ (the default is <root>/node_modules/.vite).
  cacheDir: fileURLToPath(new URL("./node_modules/.vite", import.meta.url)),
  resolve: {
    alias: { "@": webDir },
  },
  plugins: [
    // Must come before react(): it generates web/routeTree.gen.ts and splits each route file
    // into its own chunks (the public pages never download admin code).
    tanstackRouter({
      target: "react",
      autoCodeSplitting: true,
      // Absolute paths: the plugin resolves relative ones against Vite's `root` (web/).
      routesDirectory: fileURLToPath(new URL("./web/routes", import.meta.url)),
      generatedRouteTree: fileURLToPath(new URL("./web/routeTree.gen.ts", import.meta.url)),
      quoteStyle: "double",
    }),
    react(),
    tailwindcss(),
  ],
  build: {
    outDir,
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // What every page needs (React, the router, React Query, the tRPC client, the class helpers)
        // in one chunk: it compresses better than a dozen small ones and costs one request
        // (issue 5 item 8: at most 120 KB of gzipped JavaScript for /).
        codeSplitting: {
          groups: [
            {
              name: "framework",
              test: /node_modules[\\/](react|react-dom|scheduler|@tanstack|@trpc|tailwind-merge|clsx|class-variance-authority)[\\/]/,
            },
          ],
        },
      },
    },
  },
  server: {
    host: "127.0.0.1",
    port: Number(process.env.VITE_PORT ?? 5173),
    strictPort: true,
    proxy,
  },
  preview: {
    host: "127.0.0.1",
    proxy,
  },
});
