import type { QueryClient } from "@tanstack/react-query";
import { createRootRouteWithContext, Outlet, redirect } from "@tanstack/react-router";

import { AuthControls } from "@/components/auth-controls";
import { ErrorFallback } from "@/components/error-fallback";
import { SiteLayout } from "@/components/layout/site-layout";
import { NotFound } from "@/components/not-found";
import { PageSpinner } from "@/components/ui/spinner";
import { SnackbarProvider } from "@/components/ui/snackbar";
import { shouldRedirectToMaintenance } from "@/lib/maintenance";
import { sessionQueryOptions } from "@/lib/session";
import { toSettingsLookup } from "@/lib/settings";
import { SiteIdentityProvider } from "@/lib/site";
import { useSettingsSiteIdentity } from "@/lib/site-query";
import type { Trpc } from "@/lib/trpc";

export type RouterContext = {
  queryClient: QueryClient;
  trpc: Trpc;
};

export const Route = createRootRouteWithContext<RouterContext>()({
  // docs/product.md §2 Guards "Maintenance". Runs before every navigation; after the first one both queries
  // come from the cache.
  beforeLoad: async ({ context: { queryClient, trpc }, location }) => {
    const [settings, session] = await Promise.all([
      // No retries here: a failing settings call must not hold the whole site behind the spinner
      // for the ~7 s of back-off. Pages that read settings refetch with the normal retry policy.
      queryClient.ensureQueryData({ ...trpc.settings.list.queryOptions(), retry: false }).catch((error: unknown) => {
        console.error("Failed to load settings", error);
        return null;
      }),
      queryClient.ensureQueryData(sessionQueryOptions(trpc)).catch((error: unknown) => {
        console.error("Failed to check the session", error);
        return null;
      }),
    ]);
    const user = session?.loggedIn ? session.user : null;
    if (shouldRedirectToMaintenance(toSettingsLookup(settings?.settings), user, location.pathname)) {
      throw redirect({ to: "/maintenance", replace: true });
    }
  },
  component: RootComponent,
  // docs/product.md §2: a centred spinner while settings and the session load.
  pendingComponent: RootPending,
  pendingMs: 150,
  pendingMinMs: 300,
  errorComponent: ErrorFallback,
  notFoundComponent: NotFound,
});

function RootComponent() {
  const site = useSettingsSiteIdentity();
  return (
    <SiteIdentityProvider value={site}>
      <SnackbarProvider>
        <SiteLayout authControls={<AuthControls />}>
          <Outlet />
        </SiteLayout>
      </SnackbarProvider>
    </SiteIdentityProvider>
  );
}

function RootPending() {
  return <PageSpinner className="min-h-dvh" />;
}
