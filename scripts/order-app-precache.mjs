// What the member app's service worker precaches (docs/decisions/069): the files /order needs to start without a
// connection, not the whole site. From Vite's manifest: the public entry and its static imports, and the order
// page's islands, its whole page (rendered afresh when the club's settings differ from the build's) and the
// public pages' shell, each with everything it imports, lazily too (the confirm dialog, the address search).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOTS = ['routes/-public/islands/order.ts', 'routes/-public/pages/order-page.tsx', 'public-app.tsx'];

/** The files (relative to the build folder) of the manifest entries the order page can load. */
export function orderAppFiles(manifest) {
  const files = new Set();
  const seen = new Set();
  const visit = (key, followLazy) => {
    if (seen.has(key)) return;
    seen.add(key);
    const entry = manifest[key];
    if (!entry) throw new Error(`${key} is not in the Vite manifest`);
    for (const file of [entry.file, ...(entry.css ?? []), ...(entry.assets ?? [])]) files.add(file);
    for (const child of entry.imports ?? []) visit(child, followLazy);
    if (followLazy) for (const child of entry.dynamicImports ?? []) visit(child, true);
  };
  // The entry imports every public page lazily; only the order page's are wanted.
  visit('public-entry.tsx', false);
  for (const root of ROOTS) visit(root, true);
  return files;
}

/** A Workbox manifest transform: keeps the built assets the order page needs, and every file that is no built asset (icons). */
export function orderAppPrecache(outDir) {
  return async (entries) => {
    const manifest = JSON.parse(readFileSync(join(outDir, '.vite/manifest.json'), 'utf8'));
    const wanted = orderAppFiles(manifest);
    return { manifest: entries.filter((entry) => !entry.url.startsWith('assets/') || wanted.has(entry.url)), warnings: [] };
  };
}
