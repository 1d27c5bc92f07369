import type { StoredFile } from './files';

/** One backup as the admin area lists it. */
export interface BackupFile {
  name: string;
  bytes: number;
}

/**
 * Where a runtime keeps its backups and how it makes one (docs/decisions/051): Node writes a `.tar.gz` of
 * the database copy, the stored files and the secret key under DATA_DIR/backups (features/backups/node-backups.ts);
 * the Worker writes the database's rows as `.json.gz` to R2 under backups/ (features/backups/r2-backups.ts).
 */
export interface BackupStore {
  /** The file name ending of this runtime's backups. */
  readonly extension: BackupExtension;
  /** Writes a consistent copy of the club's data now, under `name`; answers its size in bytes. */
  create(name: string, now: Date): Promise<number>;
  /** Every backup there is, in no particular order. */
  list(): Promise<BackupFile[]>;
  /** The backup's bytes, or null when there is none of that name. */
  open(name: string): Promise<StoredFile | null>;
  remove(name: string): Promise<void>;
}

export type BackupExtension = '.tar.gz' | '.json.gz';
