import { publicProcedure, router } from '../../trpc/init';
import { me } from './account.service';

export const accountRouter = router({
  me: publicProcedure.query(({ ctx }) => me(ctx)),
});
