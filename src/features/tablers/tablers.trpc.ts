import { adminProcedure, publicProcedure, router } from '../../trpc/init';
import { matchSchema } from './tablers.schemas';
import { listTablers, matchTabler } from './tablers.service';

export const tablersRouter = router({
  list: adminProcedure.query(({ ctx }) => listTablers(ctx)),
  match: publicProcedure.input(matchSchema).mutation(async ({ ctx, input }) => ({ success: true as const, tabler: await matchTabler(ctx, input.password) })),
});
