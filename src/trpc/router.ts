import { accountRouter } from '../features/account/account.trpc';
import { settingsRouter } from '../features/settings/settings.trpc';
import { twoFactorRouter } from '../features/two-factor/two-factor.trpc';
import { router } from './init';

export const appRouter = router({
  account: accountRouter,
  settings: settingsRouter,
  twoFactor: twoFactorRouter,
});

export type AppRouter = typeof appRouter;
