import * as z from 'zod';
import { describeRoute } from '../../http/openapi';
import { adminOnly, attachmentResponse, query, restRouter, type CtxOf } from '../../http/rest';
import { createBackup, listBackups, openBackup } from './backups.service';

/** A missing name is no file (404 from the service), like an unknown one. */
const backupNameSchema = z.object({ name: z.string().default('') });

/** Backups (docs/architecture.md §5): make one, list them, download one; admin only. */
export function backupsRoutes(ctxOf: CtxOf) {
  const r = restRouter();
  const admin = adminOnly(ctxOf);
  r.post('/api/admin/backups', describeRoute({ answer: '{success:true,name,bytes}' }), admin, async (c) => c.json(await createBackup(await ctxOf(c))));
  r.get('/api/admin/backups', describeRoute({ answer: '{backups:[{name,bytes,created_at}]}' }), admin, async (c) =>
    c.json(await listBackups(await ctxOf(c)), 200, { 'Cache-Control': 'no-store' }),
  );
  r.get('/api/admin/backups/download', describeRoute({ file: 'application/gzip' }), admin, query(backupNameSchema), async (c) => {
    const backup = await openBackup(await ctxOf(c), c.req.valid('query').name);
    return attachmentResponse(backup.body, { contentType: 'application/gzip', size: backup.size, filename: backup.name });
  });
  return r;
}
