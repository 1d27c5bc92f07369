import type { AppDeps, RequestCtx } from '../../context';
import { dutchDate } from '../../core/calendar';
import { AppError } from '../../core/errors';
import { FIRST_CLUB_ID } from '../../db/club-db';
import type { StoredFile } from '../../platform/files';
import { writeAudit } from '../audit/audit';
import { requireAdmin } from '../auth/permissions';
import { backupCreatedAt, backupName } from './backup-names';

/** docs/architecture.md §6: a backup as `GET /api/admin/backups` lists it. */
export interface BackupView {
  name: string;
  bytes: number;
  created_at: string;
}

type BackupDeps = Pick<AppDeps, 'backups' | 'clock' | 'config'>;

/** The backups there are, newest first; files that are no backup of ours (by name) are left out. */
async function backupsNewestFirst(deps: Pick<AppDeps, 'backups'>): Promise<BackupView[]> {
  const views: BackupView[] = [];
  for (const file of await deps.backups.list()) {
    const createdAt = backupCreatedAt(file.name);
    if (createdAt !== null) views.push({ name: file.name, bytes: file.bytes, created_at: createdAt });
  }
  return views.sort((a, b) => b.created_at.localeCompare(a.created_at) || b.name.localeCompare(a.name));
}

/** Makes a backup now and drops all but the newest BACKUP_KEEP (docs/decisions/051). */
export async function makeBackup(deps: BackupDeps): Promise<BackupFileMade> {
  const now = deps.clock.now();
  const name = backupName(now, deps.backups.extension);
  const bytes = await deps.backups.create(name, now);
  for (const old of (await backupsNewestFirst(deps)).slice(deps.config.backupKeep)) await deps.backups.remove(old.name);
  return { name, bytes };
}

export interface BackupFileMade {
  name: string;
  bytes: number;
}

/** The daily backup (Node's timer, the Worker's cron): made when there is none of today yet, Dutch time. */
export async function makeDailyBackup(deps: BackupDeps): Promise<BackupFileMade | null> {
  const today = dutchDate(deps.clock.now());
  const [newest] = await backupsNewestFirst(deps);
  if (newest && dutchDate(new Date(newest.created_at)) === today) return null;
  return makeBackup(deps);
}

/**
 * A backup holds the whole database, every club's rows (docs/decisions/071): only the first club's admins, who
 * run the deployment, make and fetch them. To another club's admin the backups are not there (404).
 */
function requireDeploymentAdmin(ctx: RequestCtx): void {
  requireAdmin(ctx);
  if (ctx.club.id !== FIRST_CLUB_ID) throw new AppError('BACKUP_NOT_FOUND', 'Not found');
}

/** `POST /api/admin/backups`, `backups.create`. */
export async function createBackup(ctx: RequestCtx): Promise<{ success: true } & BackupFileMade> {
  requireDeploymentAdmin(ctx);
  const made = await makeBackup(ctx);
  await writeAudit(ctx, { action: 'backup.created', target: `backup:${made.name}`, details: { bytes: made.bytes } });
  return { success: true, ...made };
}

/** `GET /api/admin/backups`, `backups.list`. */
export async function listBackups(ctx: RequestCtx): Promise<{ backups: BackupView[] }> {
  requireDeploymentAdmin(ctx);
  return { backups: await backupsNewestFirst(ctx) };
}

/**
 * `GET /api/admin/backups/download?name=`: only a name of the list is ever looked up, so a path or any
 * other file answers 404 like an unknown backup.
 */
export async function openBackup(ctx: RequestCtx, name: string): Promise<{ name: string } & StoredFile> {
  requireDeploymentAdmin(ctx);
  if (backupCreatedAt(name) === null) throw new AppError('BACKUP_NOT_FOUND', 'Not found');
  const file = await ctx.backups.open(name);
  if (!file) throw new AppError('BACKUP_NOT_FOUND', 'Not found');
  await writeAudit(ctx, { action: 'backup.downloaded', target: `backup:${name}` });
  return { name, ...file };
}
