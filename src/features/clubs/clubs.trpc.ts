import { publicProcedure, router, userProcedure } from '../../trpc/init';
import { clubIdQuerySchema, clubSignupSchema, clubVerifySchema, createClubSchema, updateClubSchema } from '../../core/club-schemas';

/** The twins of the REST calls (clubs.routes.ts) for the SPA: the platform's Clubs screen, /aanmelden and its link. */
export const clubsRouter = router({
  list: userProcedure.query(({ ctx }) => ctx.platform.list(ctx)),
  create: userProcedure.input(createClubSchema).mutation(({ ctx, input }) => ctx.platform.create(ctx, input)),
  update: userProcedure
    .input(clubIdQuerySchema.extend(updateClubSchema.shape))
    .mutation(({ ctx, input: { id, ...changes } }) => ctx.platform.update(ctx, id, changes)),
  signup: publicProcedure.input(clubSignupSchema).mutation(({ ctx, input }) => ctx.platform.signup(ctx, input)),
  verify: publicProcedure.input(clubVerifySchema).mutation(({ ctx, input }) => ctx.platform.verify(ctx, input)),
});
