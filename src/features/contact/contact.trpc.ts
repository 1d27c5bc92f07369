import { publicProcedure, router } from '../../trpc/init';
import { contactSchema } from './contact.schemas';
import { sendContactMessage } from './contact.service';

export const contactRouter = router({
  send: publicProcedure.input(contactSchema).mutation(async ({ ctx, input }) => {
    await sendContactMessage(ctx, input);
    return { success: true as const };
  }),
});
