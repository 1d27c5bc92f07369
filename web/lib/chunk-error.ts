// docs/product.md §8 "Chunk loading": a script chunk that fails to load (typically after a new deploy removed
// the old hashed files) gets a loading-failure message with a reload, not the generic error page.

const CHUNK_ERROR_PATTERNS: readonly RegExp[] = [
  /Failed to fetch dynamically imported module/i, // Chromium
  /error loading dynamically imported module/i, // Firefox
  /Importing a module script failed/i, // Safari
  /Unable to preload CSS/i, // Vite's preload helper
  /Loading (CSS )?chunk [\w-]+ failed/i, // webpack-style ChunkLoadError messages
];

export function isChunkLoadError(error: unknown): boolean {
  if (typeof error !== "object" || error === null) {
    return typeof error === "string" && matchesChunkMessage(error);
  }
  const { name, message } = error as { name?: unknown; message?: unknown };
  if (name === "ChunkLoadError") return true;
  return typeof message === "string" && matchesChunkMessage(message);
}

function matchesChunkMessage(message: string): boolean {
  return CHUNK_ERROR_PATTERNS.some((pattern) => pattern.test(message));
}
