import { accountRouter } from './features/account/account.trpc';
import { auditRouter } from './features/audit/audit.trpc';
import { backupsRouter } from './features/backups/backups.trpc';
import { clubsRouter } from './features/clubs/clubs.trpc';
import { contactRouter } from './features/contact/contact.trpc';
import { deliveryRouter } from './features/delivery/delivery.trpc';
import { ordersRouter } from './features/orders/orders.trpc';
import { invoicesRouter } from './features/invoices/invoices.trpc';
import { paymentsRouter } from './features/payments/payments.trpc';
import { onlinePaymentsRouter } from './features/online-payments/online-payments.trpc';
import { mailRouter } from './features/mail/mail.trpc';
import { tablersRouter } from './features/tablers/tablers.trpc';
import { groupsRouter } from './features/groups/groups.trpc';
import { permissionsRouter } from './features/permissions/permissions.trpc';
import { settingsRouter } from './features/settings/settings.trpc';
import { twoFactorRouter } from './features/two-factor/two-factor.trpc';
import { usersRouter } from './features/users/users.trpc';
import { versionsRouter } from './features/versions/versions.trpc';
import { router } from './trpc/init';

/** Every feature's tRPC procedures under one router: served at /trpc (app.ts), typed for the SPA's client. */
export const appRouter = router({
  account: accountRouter,
  audit: auditRouter,
  backups: backupsRouter,
  clubs: clubsRouter,
  contact: contactRouter,
  orders: ordersRouter,
  invoices: invoicesRouter,
  payments: paymentsRouter,
  onlinePayments: onlinePaymentsRouter,
  delivery: deliveryRouter,
  mail: mailRouter,
  tablers: tablersRouter,
  settings: settingsRouter,
  twoFactor: twoFactorRouter,
  versions: versionsRouter,
  users: usersRouter,
  groups: groupsRouter,
  permissions: permissionsRouter,
});

export type AppRouter = typeof appRouter;
