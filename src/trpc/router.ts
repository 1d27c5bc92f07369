import { accountRouter } from '../features/account/account.trpc';
import { settingsRouter } from '../features/settings/settings.trpc';
import { router } from './init';

export const appRouter = router({
  account: accountRouter,
  settings: settingsRouter,
});

export type AppRouter = typeof appRouter;
