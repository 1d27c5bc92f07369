import { adminProcedure, router } from '../../trpc/init';
import { createBackup, listBackups } from './backups.service';

// The download stays on the REST surface: it is a file.
export const backupsRouter = router({
  list: adminProcedure.query(({ ctx }) => listBackups(ctx)),
  create: adminProcedure.mutation(({ ctx }) => createBackup(ctx)),
});
