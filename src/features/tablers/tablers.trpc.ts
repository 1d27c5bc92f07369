import { managementProcedure, publicProcedure, router } from '../../trpc/init';
import { idSchema } from '../../core/record-id';
import { sellerLinkSchema, matchSchema, tablerNameSchema } from './tablers.schemas';
import { tablerLink } from './seller-links.service';
import { createTabler, deleteTabler, listTablers, matchTabler, renameTabler } from './tablers.service';

export const tablersRouter = router({
  list: managementProcedure.query(({ ctx }) => listTablers(ctx)),
  create: managementProcedure
    .input(tablerNameSchema)
    .mutation(async ({ ctx, input }) => ({ success: true as const, tabler: await createTabler(ctx, input.name) })),
  update: managementProcedure
    .input(idSchema.extend(tablerNameSchema.shape))
    .mutation(async ({ ctx, input }) => ({ success: true as const, tabler: await renameTabler(ctx, input.id, input.name) })),
  delete: managementProcedure.input(idSchema).mutation(async ({ ctx, input }) => {
    await deleteTabler(ctx, input.id);
    return { success: true as const };
  }),
  // POST /tablers/link's twin for Management's "Eigen bestellink" (docs/decisions/070).
  link: managementProcedure.input(idSchema.extend(sellerLinkSchema.shape)).mutation(({ ctx, input }) => tablerLink(ctx, input.id, input.renew === true)),
  match: publicProcedure.input(matchSchema).mutation(async ({ ctx, input }) => ({ success: true as const, ...(await matchTabler(ctx, input.password)) })),
});
