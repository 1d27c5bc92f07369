import { adminProcedure, router } from '../../trpc/init';
import { auditQuerySchema } from './audit.schemas';
import { listAudit } from './audit.service';

export const auditRouter = router({
  list: adminProcedure.input(auditQuerySchema).query(({ ctx, input }) => listAudit(ctx, input)),
});
