import { idSchema } from '../../http/record-id';
import { adminProcedure, router } from '../../trpc/init';
import { mailListSchema } from './mail.schemas';
import { listMail, retryMail } from './mail.service';

export const mailRouter = router({
  list: adminProcedure.input(mailListSchema.optional()).query(({ ctx, input }) => listMail(ctx, input ?? {})),
  retry: adminProcedure.input(idSchema).mutation(({ ctx, input }) => retryMail(ctx, input.id)),
});
