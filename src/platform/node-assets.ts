import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

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
 * `<path>.html` or `<path>/index.html` for prerendered pages, else 404 (the app then serves the
 * SPA shell, /app, for page requests — the same way on both runtimes).
 * Files are cached in memory after the first read (the build is small and immutable). Only files that
 * exist are kept: a miss is looked up again next time, so requests for random paths cannot grow the
 * cache (issue 12 item 11); its size is bounded by the build.
 */
const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Text formats worth compressing (images other than SVG already are). */
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.webmanifest', '.svg', '.txt', '.xml']);

type Encoding = 'br' | 'gzip';

interface AssetFile {
  body: Buffer;
  type: string;
  etag: string;
  compressible: boolean;
  /** Compressed once, on first demand, then kept with the file. */
  encoded: Partial<Record<Encoding, Promise<Buffer>>>;
}

export interface NodeAssets {
  (request: Request): Promise<Response>;
  /** How many files are held in memory (for the test that the cache stays bounded). */
  cachedFiles(): number;
}

export function createNodeAssets(root: string): NodeAssets {
  const cache = new Map<string, AssetFile>();
  const absoluteRoot = normalize(root);

  async function load(relative: string): Promise<AssetFile | null> {
    const cached = cache.get(relative);
    if (cached) return cached;
    const full = normalize(join(absoluteRoot, relative));
    let entry: AssetFile | null = null;
    if (full.startsWith(absoluteRoot + sep)) {
      try {
        if ((await stat(full)).isFile()) {
          const body = await readFile(full);
          const extension = extname(full);
          entry = {
            body,
            type: TYPES[extension] ?? 'application/octet-stream',
            // Weak: the same tag for the plain and the compressed forms of the file.
            etag: `W/"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
            compressible: COMPRESSIBLE.has(extension) && body.length > 1024,
            encoded: {},
          };
        }
      } catch {
        entry = null;
      }
    }
    if (entry) cache.set(relative, entry);
    return entry;
  }

  const serve = async (request: Request): Promise<Response> => {
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
    return new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
  };
  return Object.assign(serve, { cachedFiles: () => cache.size });
}

/** The best encoding the browser accepts: Brotli, then gzip (a `;q=0` refuses one). */
export function pickEncoding(acceptEncoding: string | null): Encoding | null {
  const accepted = new Set(
    (acceptEncoding ?? '')
      .toLowerCase()
      .split(',')
      .map((part) => part.trim())
      .filter((part) => part && !/;\s*q=0(?:\.0*)?\s*$/.test(part))
      .map((part) => part.split(';')[0]!.trim()),
  );
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip') || accepted.has('*')) return 'gzip';
  return null;
}

function encode(file: AssetFile, encoding: Encoding): Promise<Buffer> {
  file.encoded[encoding] ??=
    encoding === 'br'
      ? brotli(file.body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: file.body.length } })
      : gzipAsync(file.body, { level: 9 });
  return file.encoded[encoding];
}

async function respond(request: Request, file: AssetFile, path: string): Promise<Response> {
  // Vite's hashed files never change; pages must be revalidated so a deploy shows at once.
  const cacheControl = path.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache';
  const headers: Record<string, string> = { 'Content-Type': file.type, 'Cache-Control': cacheControl, ETag: file.etag };
  if (file.compressible) headers.Vary = 'Accept-Encoding';
  const ifNoneMatch = request.headers.get('if-none-match');
  if (ifNoneMatch && ifNoneMatch.split(',').some((tag) => tag.trim() === file.etag || tag.trim() === '*')) {
    return new Response(null, { status: 304, headers });
  }
  const encoding = file.compressible ? pickEncoding(request.headers.get('accept-encoding')) : null;
  const body = encoding ? await encode(file, encoding) : file.body;
  if (encoding) headers['Content-Encoding'] = encoding;
  headers['Content-Length'] = String(body.length);
  return new Response(request.method === 'HEAD' ? null : new Uint8Array(body), { status: 200, headers });
}
