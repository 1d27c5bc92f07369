import type { ManifestEntry } from 'workbox-build';

/** Types of scripts/order-app-precache.mjs, for vite.config.ts. */
export function orderAppFiles(
  manifest: Record<string, { file: string; css?: string[]; assets?: string[]; imports?: string[]; dynamicImports?: string[] }>,
): Set<string>;
export function orderAppPrecache(
  outDir: string,
): (entries: (ManifestEntry & { size: number })[]) => Promise<{ manifest: (ManifestEntry & { size: number })[]; warnings: string[] }>;
