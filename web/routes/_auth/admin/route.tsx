import { createFileRoute, Outlet, useMatch } from "@tanstack/react-router";

import { NotFound } from "@/components/not-found";
import { PageSpinner } from "@/components/ui/spinner";
import { requirePermission, requireTwoFactorWhenRequired } from "@/lib/guards";
import { ADMIN_ACCESS } from "@/lib/permissions";
import { AdminToolbar } from "./-components/admin-toolbar";

// spec §2 "Guards", admin guard: /admin and every page under it redirect to / unless the user
// holds admin.access (the _auth layout above has already sent visitors to /login); an admin who must
// first turn on two-factor (DESIGN §5) goes to /account.
// The layout is split into its own chunk with the pages (autoCodeSplitting), so no admin screen
// code reaches a visitor of the public pages; only this guard is in the main bundle.
export const Route = createFileRoute("/_auth/admin")({
  beforeLoad: async ({ context }) => {
    requirePermission(context.user, ADMIN_ACCESS);
    await requireTwoFactorWhenRequired(context);
  },
  pendingComponent: () => <PageSpinner />,
  component: AdminLayout,
  // An admin path without a page (e.g. /admin/management before it exists) keeps the toolbar.
  notFoundComponent: NotFound,
});

// spec §2 "Admin home and toolbar": /admin is the tile grid itself; its sub-pages get the toolbar.
function AdminLayout() {
  const isAdminHome = useMatch({ from: "/_auth/admin/", shouldThrow: false }) !== undefined;
  return (
    <>
      {!isAdminHome && <AdminToolbar />}
      <Outlet />
    </>
  );
}
