import type { R2Bucket } from '@cloudflare/workers-types';
import type { PlatformDb } from '../../db/client';
import type { BackupFile, BackupStore } from '../../platform/backup-store';
import { exportTables } from './table-export';

/** Where the Worker's backups live in its bucket (docs/architecture.md §6). */
export const R2_BACKUP_PREFIX = 'backups/';

/**
 * The Worker's backups (docs/decisions/051): the database's rows as gzipped JSON in R2 under backups/. D1
 * has no `VACUUM INTO`; the files in R2 are not copied (they are in R2 already; see the decision).
 */
export function createR2BackupStore(bucket: R2Bucket, db: PlatformDb): BackupStore {
  return {
    extension: '.json.gz',
    async create(name, now) {
      const json = JSON.stringify(await exportTables(db, now));
      const gzipped = new Uint8Array(await new Response(new Blob([json]).stream().pipeThrough(new CompressionStream('gzip'))).arrayBuffer());
      await bucket.put(`${R2_BACKUP_PREFIX}${name}`, gzipped, { httpMetadata: { contentType: 'application/gzip' } });
      return gzipped.byteLength;
    },
    async list() {
      const files: BackupFile[] = [];
      let cursor: string | undefined;
      do {
        const page = await bucket.list({ prefix: R2_BACKUP_PREFIX, ...(cursor ? { cursor } : {}) });
        for (const object of page.objects) files.push({ name: object.key.slice(R2_BACKUP_PREFIX.length), bytes: object.size });
        cursor = page.truncated ? page.cursor : undefined;
      } while (cursor);
      return files;
    },
    async open(name) {
      const object = await bucket.get(`${R2_BACKUP_PREFIX}${name}`);
      return object ? { body: object.body as unknown as ReadableStream<Uint8Array>, size: object.size } : null;
    },
    async remove(name) {
      await bucket.delete(`${R2_BACKUP_PREFIX}${name}`);
    },
  };
}
