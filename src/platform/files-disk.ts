import { createReadStream, createWriteStream, type Dirent } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { encodeHexLowerCase } from '@oslojs/encoding';
import { randomBytes } from './crypto';
import { assertSafeKey, type FileStore } from './files';

/**
 * Files in a folder (Node). Writes go to a temporary name and are renamed when complete. Folders are
 * made 0700 and files 0600 (docs/decisions/032): invoices and APKs are nobody else's on a shared machine.
 */
export function createDiskFileStore(root: string): FileStore {
  const pathOf = (key: string) => {
    assertSafeKey(key);
    return join(root, key);
  };
  return {
    async put(key, body, options) {
      const target = pathOf(key);
      await mkdir(dirname(target), { recursive: true, mode: 0o700 });
      const temp = `${target}.${encodeHexLowerCase(randomBytes(6))}.partial`;
      try {
        const source = body instanceof Uint8Array ? Readable.from([body]) : Readable.fromWeb(body as never);
        await pipeline(source, createWriteStream(temp, { flags: 'wx', mode: 0o600 }));
        const { size } = await stat(temp);
        if (options?.size !== undefined && size !== options.size) {
          throw new Error(`Stored size ${size} differs from the announced ${options.size}`);
        }
        await rename(temp, target);
        return { size };
      } catch (error) {
        await rm(temp, { force: true });
        throw error;
      }
    },
    async get(key) {
      const path = pathOf(key);
      try {
        const { size } = await stat(path);
        const stream = Readable.toWeb(createReadStream(path)) as unknown as ReadableStream<Uint8Array>;
        return { body: stream, size };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
    async exists(key) {
      const path = pathOf(key);
      try {
        await stat(path);
        return true;
      } catch {
        return false;
      }
    },
    async list(prefix) {
      // Only the folder the prefix names is walked; a write still under its temporary name is not a file yet.
      const folder = prefix.slice(0, prefix.lastIndexOf('/') + 1);
      if (folder) assertSafeKey(folder.slice(0, -1));
      let entries: Dirent[];
      try {
        entries = await readdir(join(root, folder), { recursive: true, withFileTypes: true });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw error;
      }
      return entries
        .filter((entry) => entry.isFile() && !entry.name.endsWith('.partial'))
        .map((entry) => relative(root, join(entry.parentPath, entry.name)).split(sep).join('/'))
        .filter((key) => key.startsWith(prefix))
        .sort();
    },
  };
}
