import { adminOnly, attachmentResponse, restRouter, type CtxOf } from '../../http/rest';
import { createBackup, listBackups, openBackup } from './backups.service';

/** docs/architecture.md §6 backups: make one, list them, download one; admin only. */
export function backupsRoutes(ctxOf: CtxOf) {
  const r = restRouter();
  const admin = adminOnly(ctxOf);
  r.post('/api/admin/backups', admin, async (c) => c.json(await createBackup(await ctxOf(c))));
  r.get('/api/admin/backups', admin, async (c) => c.json(await listBackups(await ctxOf(c)), 200, { 'Cache-Control': 'no-store' }));
  r.get('/api/admin/backups/download', admin, async (c) => {
    const backup = await openBackup(await ctxOf(c), c.req.query('name') ?? '');
    return attachmentResponse(backup.body, { contentType: 'application/gzip', size: backup.size, filename: backup.name });
  });
  return r;
}
