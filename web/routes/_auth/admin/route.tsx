import { createFileRoute, Outlet, redirect, useMatch } from "@tanstack/react-router";

import { NotFound } from "@/components/not-found";
import { PageSpinner } from "@/components/ui/spinner";
import { requireAdminArea, requirePermission, requireTwoFactorWhenRequired } from "@/lib/guards";
import { toSettingsLookup } from "@/lib/settings";
import { hasPermission, PERMISSIONS } from "#src/features/auth/permission-keys";
import { mayOpenSection, permissionForAdminPath, sectionForAdminPath } from "./-components/admin-sections";
import { SETUP_PATH, setupPostponed } from "./-setup/setup-state";
import { AdminToolbar } from "./-components/admin-toolbar";
import { MaintenanceBanner } from "./-components/maintenance-banner";

// docs/product.md §2 "Guards", admin guard: /admin and every page under it redirect to / unless the user may open
// some of the admin area (admin.access, or management.access for a treasurer, docs/decisions/026); the _auth
// layout above has already sent visitors to /login. Each page then needs its section's permission: a
// treasurer who asks for another page goes back to /admin, which shows only what they may open. An
// admin who must first turn on two-factor (docs/architecture.md §5) goes to /account.
// The layout is split into its own chunk with the pages (autoCodeSplitting), so no admin screen
// code reaches a visitor of the public pages; only this guard (and the sections' list it reads) is in
// the SPA's main bundle.
export const Route = createFileRoute("/_auth/admin")({
  beforeLoad: async ({ context, location }) => {
    requireAdminArea(context.user);
    await requireTwoFactorWhenRequired(context);
    const needed = permissionForAdminPath(location.pathname);
    if (needed) requirePermission(context.user, needed, "/admin");
    const section = sectionForAdminPath(location.pathname);
    if (section && !mayOpenSection(context.user, section)) throw redirect({ to: "/admin", replace: true });
    // docs/decisions/073: a new club's admin first gets the short set-up, unless they put it off in this tab.
    if (hasPermission(context.user, PERMISSIONS.adminAccess) && location.pathname !== SETUP_PATH && !setupPostponed()) {
      const settings = await context.queryClient.ensureQueryData(context.trpc.settings.list.queryOptions()).catch(() => null);
      if (settings && toSettingsLookup(settings.settings).club_setup_pending === true) throw redirect({ to: SETUP_PATH, replace: true });
    }
  },
  pendingComponent: () => <PageSpinner />,
  component: AdminLayout,
  // An admin path without a page (e.g. /admin/management before it exists) keeps the toolbar.
  notFoundComponent: NotFound,
});

// docs/product.md §2 "Admin home and toolbar": /admin is the tile grid itself; its sub-pages get the toolbar.
// Every admin screen, the home too, gets the maintenance strip, in the page's language: the
// user's, but Dutch on the Management page, which is in Dutch for everyone.
function AdminLayout() {
  const isAdminHome = useMatch({ from: "/_auth/admin/", shouldThrow: false }) !== undefined;
  const isManagement = useMatch({ from: "/_auth/admin/management", shouldThrow: false }) !== undefined;
  return (
    <>
      {!isAdminHome && <AdminToolbar />}
      <MaintenanceBanner language={isManagement ? "nl" : undefined} />
      <Outlet />
    </>
  );
}
