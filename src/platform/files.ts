/**
 * File storage for APKs and mail attachments: R2 on the Worker, a folder on Node.
 * Bodies are streams both ways so an APK (up to MAX_UPLOAD_MB) is never held in memory whole.
 */
export interface StoredFile {
  body: ReadableStream<Uint8Array>;
  size: number;
}

export interface FileStore {
  /** Writes the stream under `key`; `size`, when known, is checked (and R2 needs it for streams). */
  put(key: string, body: ReadableStream<Uint8Array> | Uint8Array, options?: { size?: number; contentType?: string }): Promise<{ size: number }>;
  get(key: string): Promise<StoredFile | null>;
  delete(key: string): Promise<void>;
  exists(key: string): Promise<boolean>;
  /** The keys of every stored file whose key starts with `prefix` (e.g. a folder 'series/invoice/2026/'), sorted. */
  list(prefix: string): Promise<string[]>;
}

/** Keys are plain relative names: letters, digits, dot, dash, underscore and single slashes. */
export function assertSafeKey(key: string): void {
  if (!/^[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+)*$/.test(key) || key.split('/').some((part) => part === '..' || part === '.')) {
    throw new Error(`Unsafe storage key: ${key}`);
  }
}

/**
 * One club's part of file storage (docs/decisions/071): its keys live under `clubs/<id>/`, and it sees no other
 * key. The first club's keys stay where a deployment from before there were clubs put them (no prefix).
 */
export function clubFileStore(files: FileStore, prefix: string): FileStore {
  if (prefix === '') return files;
  return {
    put: (key, body, options) => files.put(prefix + key, body, options),
    get: (key) => files.get(prefix + key),
    delete: (key) => files.delete(prefix + key),
    exists: (key) => files.exists(prefix + key),
    list: async (keyPrefix) => (await files.list(prefix + keyPrefix)).map((key) => key.slice(prefix.length)),
  };
}
