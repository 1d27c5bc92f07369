import { accountRouter } from '../features/account/account.trpc';
import { groupsRouter } from '../features/groups/groups.trpc';
import { permissionsRouter } from '../features/permissions/permissions.trpc';
import { settingsRouter } from '../features/settings/settings.trpc';
import { twoFactorRouter } from '../features/two-factor/two-factor.trpc';
import { usersRouter } from '../features/users/users.trpc';
import { versionsRouter } from '../features/versions/versions.trpc';
import { router } from './init';

export const appRouter = router({
  account: accountRouter,
  settings: settingsRouter,
  twoFactor: twoFactorRouter,
  versions: versionsRouter,
  users: usersRouter,
  groups: groupsRouter,
  permissions: permissionsRouter,
});

export type AppRouter = typeof appRouter;
