import { publicProcedure, router, userProcedure } from '../../trpc/init';
import { codeSchema } from './two-factor.schemas';
import { checkTwoFactor, completeTwoFactorLogin, disableTwoFactor, setupTwoFactor, verifyTwoFactor } from './two-factor.service';

export const twoFactorRouter = router({
  setup: userProcedure.mutation(async ({ ctx }) => ({ success: true as const, ...(await setupTwoFactor(ctx)) })),
  verify: userProcedure.input(codeSchema).mutation(async ({ ctx, input }) => ({ success: true as const, ...(await verifyTwoFactor(ctx, input.code)) })),
  // The pending session is not signed in yet, so these two are public; the service checks the session.
  completeLogin: publicProcedure.input(codeSchema).mutation(async ({ ctx, input }) => {
    await completeTwoFactorLogin(ctx, input.code);
    return { success: true as const, user: ctx.user };
  }),
  check: publicProcedure.input(codeSchema).mutation(async ({ ctx, input }) => ({ success: true as const, ...(await checkTwoFactor(ctx, input.code)) })),
  disable: userProcedure.input(codeSchema).mutation(async ({ ctx, input }) => ({ success: true as const, ...(await disableTwoFactor(ctx, input.code)) })),
});
