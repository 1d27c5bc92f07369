// Last step of `npm run build:web` (called at the end of scripts/prerender.mjs, so `npm test`'s build runs it
// too): a Brotli (.br, quality 11) and a gzip (.gz, level 9) copy next to every text file of dist/web, each only
// when it is smaller than the file. Node sends these as they are (src/platform/node-assets.ts), so no request
// pays for compression and every visitor gets the strongest one. Cloudflare compresses the Worker's assets
// itself: the .assetsignore written here keeps the copies out of its upload.
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { extname, join, relative } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Text formats; images other than SVG and fonts are compressed already. */
const COMPRESSIBLE_EXTENSIONS = ['.html', '.js', '.mjs', '.css', '.json', '.xml', '.txt', '.svg', '.webmanifest'];

/** Wrangler's ignore file (gitignore syntax) in the assets folder; never uploaded itself. */
const ASSETS_IGNORE = '# Written by scripts/precompress.mjs: Cloudflare compresses assets itself.\n*.br\n*.gz\n';

async function filesUnder(dir) {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

/** Writes `<file>.br` when it is smaller than `file`, and removes one left by an earlier run when not. */
async function writeSmaller(path, plain, compressed) {
  if (compressed.length < plain.length) await writeFile(path, compressed);
  else await rm(path, { force: true });
}

/**
 * Compresses every text file under `dir` (all at once: zlib works on libuv's thread pool) and writes
 * `.assetsignore`. Returns the byte counts per file, relative to `dir`, for the build's summary.
 */
export async function precompress(dir) {
  const files = (await filesUnder(dir)).filter((file) => COMPRESSIBLE_EXTENSIONS.includes(extname(file)));
  const results = await Promise.all(
    files.map(async (file) => {
      const plain = await readFile(file);
      const [br, gz] = await Promise.all([
        brotli(plain, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_SIZE_HINT]: plain.length,
          },
        }),
        gzipAsync(plain, { level: 9 }),
      ]);
      await Promise.all([writeSmaller(`${file}.br`, plain, br), writeSmaller(`${file}.gz`, plain, gz)]);
      return { file: relative(dir, file), plain: plain.length, br: br.length, gzip: gz.length };
    }),
  );
  await writeFile(join(dir, '.assetsignore'), ASSETS_IGNORE);
  return results;
}
