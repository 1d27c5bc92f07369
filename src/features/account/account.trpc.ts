import { publicProcedure, router, userProcedure } from '../../trpc/init';
import {
  changePasswordSchema,
  editEmailSchema,
  forgotPasswordSchema,
  loginSchema,
  registerSchema,
  resetPasswordSchema,
  revokeSessionSchema,
  setLocaleSchema,
} from './account.schemas';
import { changePassword, editEmail, login, logout, me, register, setLocale } from './account.service';
import { requestPasswordReset, resetPassword } from './password-reset.service';
import { listSessions, revokeOtherSessions, revokeSession } from './sessions.service';

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
  setLocale: userProcedure.input(setLocaleSchema).mutation(async ({ ctx, input }) => {
    await setLocale(ctx, input);
    return { success: true as const };
  }),
  forgotPassword: publicProcedure.input(forgotPasswordSchema).mutation(async ({ ctx, input }) => {
    await requestPasswordReset(ctx, input);
    return { success: true as const };
  }),
  resetPassword: publicProcedure.input(resetPasswordSchema).mutation(async ({ ctx, input }) => {
    await resetPassword(ctx, input);
    return { success: true as const };
  }),
  sessions: userProcedure.query(async ({ ctx }) => ({ sessions: await listSessions(ctx) })),
  revokeSession: userProcedure.input(revokeSessionSchema).mutation(async ({ ctx, input }) => {
    await revokeSession(ctx, input.id);
    return { success: true as const };
  }),
  revokeOtherSessions: userProcedure.mutation(async ({ ctx }) => {
    await revokeOtherSessions(ctx);
    return { success: true as const };
  }),
});
