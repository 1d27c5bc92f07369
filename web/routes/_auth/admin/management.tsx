import { useQuery, useQueryClient } from "@tanstack/react-query";
import { createFileRoute } from "@tanstack/react-router";
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
import { filtersToQueryString, type OrderFilters } from "./-management/shared";
import { ChartsBoundary } from "./-management/charts-boundary";
import { TablersTab } from "./-management/tablers-tab";
import { TotalsPanel } from "./-management/totals";

// The charts and their library load after the figures (issue 13): a chunk of their own that only this
// page asks for.
const CampaignCharts = React.lazy(() => import("./-management/charts"));

// spec §2 Management Dashboard (Dutch), §3 Tabler and Order, §4, §5, §8 management messages, §9;
// issue 6 items 6–8; issue 13 (totals from SQL, charts, invoice readiness, bank statements).
export const Route = createFileRoute("/_auth/admin/management")({
  loader: ({ context: { queryClient, trpc } }) => {
    void queryClient.prefetchQuery(trpc.invoices.totals.queryOptions());
    void queryClient.prefetchQuery(trpc.tablers.list.queryOptions());
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
  const [tab, setTab] = React.useState("tablers");
  const [filters, setFilters] = React.useState<OrderFilters>({});
  const [exporting, setExporting] = React.useState(false);
  const totals = useQuery(trpc.invoices.totals.queryOptions());
  useTotalsFollowChanges();

  const handleFiltersChange = React.useCallback((next: OrderFilters) => setFilters(next), []);

  async function handleExport() {
    setExporting(true);
    try {
      await downloadFile(`/orders/export.csv${filtersToQueryString(filters)}`, "bestellingen.csv");
    } catch {
      showSnackbar("Exporteren mislukt", "error");
    } finally {
      setExporting(false);
    }
  }

  return (
    <AdminPage
      title="Management Dashboard"
      className="max-w-none"
      description="Beheer van tablers, bestellingen, facturen, betalingen en mail van de Kerstactie."
    >
      <ReadinessBanner />
      {error && <DismissibleErrorAlert message={error} onDismiss={() => setError(null)} />}
      {totals.isError && !error && (
        <DismissibleErrorAlert message="Failed to fetch totals" onDismiss={() => void totals.refetch()} />
      )}
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
      <Tabs value={tab} onValueChange={setTab}>
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
          <OrdersTab filters={filters} onFiltersChange={handleFiltersChange} onError={setError} />
        </TabsContent>
        <TabsContent value="payments">
          <PaymentsTab />
        </TabsContent>
        <TabsContent value="mail">
          <MailTab onError={setError} />
        </TabsContent>
      </Tabs>
    </AdminPage>
  );
}
