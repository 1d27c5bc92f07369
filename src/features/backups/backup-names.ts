import type { BackupExtension } from '../../platform/backup-store';

const NAME = /^kerstactie-(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})-(\d{3})Z(\.tar\.gz|\.json\.gz)$/;

/** A backup's name says when it was made, to the millisecond, so names sort by age and never hold a path. */
export function backupName(now: Date, extension: BackupExtension): string {
  return `kerstactie-${now.toISOString().replace(/[:.]/g, '-')}${extension}`;
}

/** When the backup of that name was made, or null for any other name (a path, a stray file). */
export function backupCreatedAt(name: string): string | null {
  const match = NAME.exec(name);
  if (!match) return null;
  const [, day, hours, minutes, seconds, millis] = match;
  const at = new Date(`${day}T${hours}:${minutes}:${seconds}.${millis}Z`);
  return Number.isNaN(at.getTime()) ? null : at.toISOString();
}
