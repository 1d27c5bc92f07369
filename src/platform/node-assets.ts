import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.woff2': 'font/woff2',
};

/**
 * Serves the built SPA from a folder, like the Worker's assets binding: a file when it exists,
 * `<path>.html` or `<path>/index.html` for prerendered pages, else index.html for page requests.
 * Files are cached in memory after the first read (the build is small and immutable).
 */
export function createNodeAssets(root: string): (request: Request) => Promise<Response> {
  const cache = new Map<string, { body: Buffer; type: string } | null>();
  const absoluteRoot = normalize(root);

  async function load(relative: string) {
    if (cache.has(relative)) return cache.get(relative)!;
    const full = normalize(join(absoluteRoot, relative));
    let entry: { body: Buffer; type: string } | null = null;
    if (full.startsWith(absoluteRoot + sep)) {
      try {
        if ((await stat(full)).isFile()) entry = { body: await readFile(full), type: TYPES[extname(full)] ?? 'application/octet-stream' };
      } catch {
        entry = null;
      }
    }
    cache.set(relative, entry);
    return entry;
  }

  return async (request) => {
    const url = new URL(request.url);
    let path: string;
    try {
      path = decodeURIComponent(url.pathname);
    } catch {
      return new Response('Bad request', { status: 400 });
    }
    const candidates = path.endsWith('/') ? [`${path}index.html`] : [path, `${path}.html`, `${path}/index.html`];
    for (const candidate of candidates) {
      const file = await load(candidate);
      if (file) return respond(request, file, candidate);
    }
    const wantsPage = (request.headers.get('accept') ?? '').includes('text/html') && !extname(path);
    if (wantsPage) {
      const index = await load('/index.html');
      if (index) return respond(request, index, '/index.html');
    }
    return new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
  };
}

function respond(request: Request, file: { body: Buffer; type: string }, path: string): Response {
  // Vite's hashed files never change; pages must be revalidated so a deploy shows at once.
  const cacheControl = path.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache';
  const headers = { 'Content-Type': file.type, 'Content-Length': String(file.body.length), 'Cache-Control': cacheControl };
  return new Response(request.method === 'HEAD' ? null : new Uint8Array(file.body), { status: 200, headers });
}
