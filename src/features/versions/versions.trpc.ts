import { idSchema } from '../../core/record-id';
import { adminProcedure, router } from '../../trpc/init';
import { deleteVersion, versionsOverview } from './versions.service';

// Upload and download stay on the REST surface: they stream files (and the upload reports progress).
export const versionsRouter = router({
  list: adminProcedure.query(async ({ ctx }) => versionsOverview(ctx)),
  delete: adminProcedure.input(idSchema).mutation(async ({ ctx, input }) => {
    await deleteVersion(ctx, input.id);
    return { success: true as const };
  }),
});
