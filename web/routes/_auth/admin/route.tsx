import { createFileRoute, Outlet } from "@tanstack/react-router";

import { PageSpinner } from "@/components/ui/spinner";
import { requirePermission } from "@/lib/guards";
import { ADMIN_ACCESS } from "@/lib/permissions";

// spec §2 "Guards", admin guard: /admin and every page under it redirect to / unless the user
// holds admin.access (the _auth layout above has already sent visitors to /login).
export const Route = createFileRoute("/_auth/admin")({
  beforeLoad: ({ context }) => {
    requirePermission(context.user, ADMIN_ACCESS);
  },
  pendingComponent: () => <PageSpinner />,
  component: Outlet,
});
