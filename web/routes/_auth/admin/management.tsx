import { useQuery, useQueryClient } from "@tanstack/react-query";
import { createFileRoute, useNavigate } from "@tanstack/react-router";
import * as React from "react";

import { useSnackbar } from "@/components/ui/snackbar";
import { Spinner } from "@/components/ui/spinner";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { useTrpc } from "@/lib/auth";
import { downloadFile } from "@/lib/download";
import { AdminPage } from "./-components/admin-page";
import { DismissibleErrorAlert } from "./-components/dismissible-alert";
import { MailTab } from "./-management/mail-tab";
import { OrdersTab } from "./-management/orders-tab";
import { PaymentsTab } from "./-management/payments-tab";
import { ReadinessBanner } from "./-management/readiness-banner";
import {
  DEFAULT_TAB,
  type ManagementTab,
  MANAGEMENT_TABS,
  orderFilters,
  ordersPageInput,
  type SearchChange,
  validateManagementSearch,
  withoutDefaults,
} from "./-management/search";
import { filtersToQueryString } from "./-management/shared";
import { ChartsBoundary } from "./-management/charts-boundary";
import { TablersTab } from "./-management/tablers-tab";
import { TotalsPanel } from "./-management/totals";

// The charts and their library load after the figures (docs/decisions/024): a chunk of their own that only this
// page asks for.
const CampaignCharts = React.lazy(() => import("./-management/charts"));

// docs/product.md §2 Management Dashboard (Dutch), §3 Tabler and Order, §4, §5, §8 management messages, §9;
// docs/decisions/024 (totals from SQL, charts), 019 (invoice readiness), 025 (bank statements), 034
// (the open tab and the orders table's state in the URL, one page of orders at a time).
export const Route = createFileRoute("/_auth/admin/management")({
  validateSearch: validateManagementSearch,
  // The orders page the URL names is asked for alongside the totals, not after the tab has rendered.
  loaderDeps: ({ search }) => ({ orders: search.tab === "orders" ? ordersPageInput(search) : null }),
  loader: ({ context: { queryClient, trpc }, deps }) => {
    void queryClient.prefetchQuery(trpc.invoices.totals.queryOptions());
    void queryClient.prefetchQuery(trpc.tablers.list.queryOptions());
    if (deps.orders) void queryClient.prefetchQuery(trpc.orders.page.queryOptions(deps.orders));
  },
  component: ManagementPage,
});

/** tRPC routers whose successful changes move the campaign totals (orders, invoices, tabler names). */
const AREAS_THAT_CHANGE_TOTALS = new Set(["orders", "invoices", "tablers"]);

/**
 * Refreshes the totals after any successful change the dashboard's tabs make, in one place, so each
 * tab need not know that the figures above it exist. tRPC's mutation keys start with the procedure's
 * path ([["orders", "setPaid"]]).
 */
function useTotalsFollowChanges() {
  const trpc = useTrpc();
  const queryClient = useQueryClient();
  React.useEffect(
    () =>
      queryClient.getMutationCache().subscribe((event) => {
        if (event.type !== "updated" || event.action.type !== "success") return;
        const path = event.mutation.options.mutationKey?.[0];
        const area = Array.isArray(path) ? path[0] : undefined;
        if (typeof area === "string" && AREAS_THAT_CHANGE_TOTALS.has(area)) {
          void queryClient.invalidateQueries({ queryKey: trpc.invoices.totals.queryKey() });
        }
      }),
    [queryClient, trpc],
  );
}

function ManagementPage() {
  const trpc = useTrpc();
  const { showSnackbar } = useSnackbar();
  const [error, setError] = React.useState<string | null>(null);
  const [exporting, setExporting] = React.useState(false);
  const totals = useQuery(trpc.invoices.totals.queryOptions());
  useTotalsFollowChanges();
  const search = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });

  // Tabs, filters, sort and page are navigations, so Back undoes them; the search box replaces its entry.
  // The page stays where it is scrolled: the router would otherwise jump to the top, far above the table.
  const handleSearchChange = React.useCallback<SearchChange>(
    (changes, options) =>
      navigate({
        search: (current) => withoutDefaults({ ...current, ...changes }),
        replace: options?.replace ?? false,
        resetScroll: false,
      }),
    [navigate],
  );

  async function handleExport() {
    setExporting(true);
    try {
      // The export takes the table's filters and search text (all matching orders, not just the page).
      await downloadFile(`/orders/export.csv${filtersToQueryString(orderFilters(search))}`, "bestellingen.csv");
    } catch {
      showSnackbar("Exporteren mislukt", "error");
    } finally {
      setExporting(false);
    }
  }

  // docs/decisions/011: the Management page is Dutch whatever the user's back-office language.
  return (
    <div lang="nl" className="contents">
      <AdminPage
        title="Management Dashboard"
        description="Beheer van tablers, bestellingen, facturen, betalingen en mail van de Kerstactie."
      >
        <ReadinessBanner />
        {error && <DismissibleErrorAlert message={error} onDismiss={() => setError(null)} />}
        {totals.isError && !error && <DismissibleErrorAlert message="Failed to fetch totals" onDismiss={() => void totals.refetch()} />}
        <TotalsPanel totals={totals.data} failed={totals.isError} onExport={() => void handleExport()} exporting={exporting}>
          {/* Nothing to draw before the first order: the zeros above say it all. */}
          {totals.data && totals.data.orders > 0 && (
            <ChartsBoundary>
              <React.Suspense
                fallback={
                  <div className="flex min-h-40 items-center justify-center rounded-xl border bg-card">
                    <Spinner className="size-6 text-primary" label="Grafieken laden" />
                  </div>
                }
              >
                <CampaignCharts totals={totals.data} />
              </React.Suspense>
            </ChartsBoundary>
          )}
        </TotalsPanel>
        <Tabs
          value={search.tab ?? DEFAULT_TAB}
          onValueChange={(tab) => {
            if (MANAGEMENT_TABS.includes(tab as ManagementTab)) void handleSearchChange({ tab: tab as ManagementTab });
          }}
        >
          <TabsList className="max-w-full justify-start overflow-x-auto">
            <TabsTrigger value="tablers">Tablers</TabsTrigger>
            <TabsTrigger value="orders">Bestellingen</TabsTrigger>
            <TabsTrigger value="payments">Betalingen</TabsTrigger>
            <TabsTrigger value="mail">Mail</TabsTrigger>
          </TabsList>
          <TabsContent value="tablers">
            <TablersTab onError={setError} />
          </TabsContent>
          <TabsContent value="orders">
            <OrdersTab search={search} onSearchChange={handleSearchChange} onError={setError} />
          </TabsContent>
          <TabsContent value="payments">
            <PaymentsTab />
          </TabsContent>
          <TabsContent value="mail">
            <MailTab onError={setError} />
          </TabsContent>
        </Tabs>
      </AdminPage>
    </div>
  );
}
