import { publicProcedure, router, userProcedure } from '../../trpc/init';
import { changePasswordSchema, editEmailSchema, loginSchema, registerSchema } from './account.schemas';
import { changePassword, editEmail, login, logout, me, register } from './account.service';

export const accountRouter = router({
  me: publicProcedure.query(({ ctx }) => me(ctx)),
  login: publicProcedure.input(loginSchema).mutation(async ({ ctx, input }) => ({ success: true as const, user: await login(ctx, input) })),
  logout: publicProcedure.mutation(async ({ ctx }) => {
    await logout(ctx);
    return { success: true as const };
  }),
  register: publicProcedure.input(registerSchema).mutation(async ({ ctx, input }) => ({ success: true as const, ...(await register(ctx, input)) })),
  editEmail: userProcedure.input(editEmailSchema).mutation(async ({ ctx, input }) => {
    await editEmail(ctx, input);
    return { success: true as const };
  }),
  changePassword: userProcedure.input(changePasswordSchema).mutation(async ({ ctx, input }) => {
    await changePassword(ctx, input);
    return { success: true as const };
  }),
});
