import { createHash } from 'node:crypto';
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

type Encoding = 'br' | 'gzip';

/** The build's copy of a file in each encoding (scripts/precompress.mjs), by file suffix. */
const SUFFIXES: Record<Encoding, string> = { br: '.br', gzip: '.gz' };

/** One form of a file as it goes over the wire, with its own strong ETag (RFC 9110 §8.8.3: the bytes differ). */
interface Representation {
  body: Uint8Array<ArrayBuffer>;
  etag: string;
}

interface AssetFile {
  type: string;
  plain: Representation;
  encoded: Partial<Record<Encoding, Representation>>;
}

export interface NodeAssets {
  (request: Request): Promise<Response>;
  /** How many files are held in memory (for the test that the cache stays bounded). */
  cachedFiles(): number;
}

async function readIfFile(path: string): Promise<Buffer | null> {
  try {
    return (await stat(path)).isFile() ? await readFile(path) : null;
  } catch {
    return null;
  }
}

const representation = (body: Buffer): Representation => ({
  body: new Uint8Array(body),
  etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
});

/**
 * Serves the built SPA from a folder, like the Worker's assets binding: a file when it exists,
 * `<path>.html` or `<path>/index.html` for prerendered pages, else 404 (the app then serves the
 * SPA shell, /app, for page requests, and sets Cache-Control: http/asset-caching.ts — the same way
 * on both runtimes).
 *
 * Text files are sent as the build compressed them (`.br`, `.gz` beside the file), whichever the browser
 * prefers; nothing is compressed per request. A file without such a copy is sent plain: the build writes
 * one for every text file where it pays, so the only ones without are those compression would not shrink.
 * The copies, dotfiles and dot folders (.assetsignore, a Vite manifest in .vite/) are build output, never
 * paths of their own.
 *
 * Files are cached in memory after the first read (the build is small and immutable). Only files that
 * exist are kept: a miss is looked up again next time, so requests for random paths cannot grow the
 * cache (docs/decisions/016); its size is bounded by the build.
 */
export function createNodeAssets(root: string): NodeAssets {
  const cache = new Map<string, AssetFile>();
  const absoluteRoot = normalize(root);

  async function load(relative: string): Promise<AssetFile | null> {
    const cached = cache.get(relative);
    if (cached) return cached;
    const full = normalize(join(absoluteRoot, relative));
    if (!full.startsWith(absoluteRoot + sep)) return null;
    const body = await readIfFile(full);
    if (!body) return null;
    const encoded: AssetFile['encoded'] = {};
    for (const encoding of Object.keys(SUFFIXES) as Encoding[]) {
      const copy = await readIfFile(full + SUFFIXES[encoding]);
      if (copy) encoded[encoding] = representation(copy);
    }
    const entry: AssetFile = { type: TYPES[extname(full)] ?? 'application/octet-stream', plain: representation(body), encoded };
    cache.set(relative, entry);
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
    if (!path.split('/').some((segment) => segment.startsWith('.')) && !/\.(?:br|gz)$/.test(path)) {
      const candidates = path.endsWith('/') ? [`${path}index.html`] : [path, `${path}.html`, `${path}/index.html`];
      for (const candidate of candidates) {
        const file = await load(candidate);
        if (file) return respond(request, file);
      }
    }
    return new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
  };
  return Object.assign(serve, { cachedFiles: () => cache.size });
}

/**
 * The encoding to send, of those the file has (RFC 9110 §12.5.3): the highest q-value in Accept-Encoding,
 * Brotli before gzip when equal (it is smaller); `*` stands for any coding not named; `q=0` refuses.
 * Plain (null) when the browser names none of them, or names `identity` with a higher q. No header at all
 * means plain too: a client that sends none (curl, a script) may not be able to decode.
 */
export function pickEncoding(acceptEncoding: string | null, available: readonly Encoding[] = ['br', 'gzip']): Encoding | null {
  const quality = new Map<string, number>();
  for (const part of (acceptEncoding ?? '').toLowerCase().split(',')) {
    const [coding, ...params] = part.split(';').map((piece) => piece.trim());
    if (!coding) continue;
    const q = params.find((param) => param.startsWith('q='));
    const value = q === undefined ? 1 : Number(q.slice(2));
    quality.set(coding, Number.isFinite(value) ? value : 0);
  }
  const qualityOf = (coding: string) => quality.get(coding) ?? quality.get('*') ?? 0;
  let best: Encoding | null = null;
  for (const encoding of (['br', 'gzip'] as const).filter((e) => available.includes(e))) {
    if (qualityOf(encoding) > 0 && (best === null || qualityOf(encoding) > qualityOf(best))) best = encoding;
  }
  if (best !== null && (quality.get('identity') ?? 0) > qualityOf(best)) return null;
  return best;
}

/** If-None-Match compares weakly (RFC 9110 §13.1.2): a W/ prefix does not matter, `*` matches any. */
function matches(ifNoneMatch: string, etag: string): boolean {
  return ifNoneMatch.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed.replace(/^W\//, '') === etag;
  });
}

function respond(request: Request, file: AssetFile): Response {
  const available = Object.keys(file.encoded) as Encoding[];
  const encoding = pickEncoding(request.headers.get('accept-encoding'), available);
  const chosen = encoding ? file.encoded[encoding]! : file.plain;
  const headers: Record<string, string> = { 'Content-Type': file.type, ETag: chosen.etag };
  // What is sent depends on Accept-Encoding only for files that have compressed copies.
  if (available.length > 0) headers.Vary = 'Accept-Encoding';
  const ifNoneMatch = request.headers.get('if-none-match');
  if (ifNoneMatch && matches(ifNoneMatch, chosen.etag)) return new Response(null, { status: 304, headers });
  if (encoding) headers['Content-Encoding'] = encoding;
  headers['Content-Length'] = String(chosen.body.length);
  return new Response(request.method === 'HEAD' ? null : chosen.body, { status: 200, headers });
}
