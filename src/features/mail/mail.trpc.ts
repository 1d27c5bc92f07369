import { idSchema } from '../../core/record-id';
import { managementProcedure, router } from '../../trpc/init';
import { mailListSchema } from './mail.schemas';
import { listMail, retryMail } from './mail.service';

export const mailRouter = router({
  list: managementProcedure.input(mailListSchema.optional()).query(({ ctx, input }) => listMail(ctx, input ?? {})),
  retry: managementProcedure.input(idSchema).mutation(({ ctx, input }) => retryMail(ctx, input.id)),
});
