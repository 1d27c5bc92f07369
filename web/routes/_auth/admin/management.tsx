import { useQuery } from "@tanstack/react-query";
import { createFileRoute } from "@tanstack/react-router";
import * as React from "react";

import { useSnackbar } from "@/components/ui/snackbar";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { useTrpc } from "@/lib/auth";
import { downloadFile } from "@/lib/download";
import { toSettingsLookup } from "@/lib/settings";
import { AdminPage } from "./-components/admin-page";
import { DismissibleErrorAlert } from "./-components/dismissible-alert";
import { MailTab } from "./-management/mail-tab";
import { OrdersTab } from "./-management/orders-tab";
import { filtersToQueryString, type OrderFilters } from "./-management/shared";
import { TablersTab } from "./-management/tablers-tab";
import { TotalsPanel, vatRateFromSplit } from "./-management/totals";

// spec §2 Management Dashboard (Dutch), §3 Tabler and Order, §4, §5, §8 management messages, §9;
// issue 6 items 6–8.
export const Route = createFileRoute("/_auth/admin/management")({
  loader: ({ context: { queryClient, trpc } }) => {
    void queryClient.prefetchQuery(trpc.tablers.list.queryOptions());
    void queryClient.prefetchQuery(trpc.orders.list.queryOptions({}));
  },
  component: ManagementPage,
});

const DEFAULT_PACKAGE_PRICE = 75;

function ManagementPage() {
  const trpc = useTrpc();
  const { showSnackbar } = useSnackbar();
  const [error, setError] = React.useState<string | null>(null);
  const [tab, setTab] = React.useState("tablers");
  const [filters, setFilters] = React.useState<OrderFilters>({});
  const [exporting, setExporting] = React.useState(false);
  // The totals cover the whole campaign: the unfiltered list (shared with the table when no filter is on).
  const allOrders = useQuery(trpc.orders.list.queryOptions({}));
  const settingsQuery = useQuery(trpc.settings.list.queryOptions());
  const lookup = toSettingsLookup(settingsQuery.data?.settings);
  const price = Number(lookup.package_price);
  const packagePrice = Number.isFinite(price) && price > 0 ? price : DEFAULT_PACKAGE_PRICE;
  const vatRate = vatRateFromSplit(lookup.vat_split);

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
      description="Beheer van tablers, bestellingen, facturen en mail van de Kerstactie.">
      {error && <DismissibleErrorAlert message={error} onDismiss={() => setError(null)} />}
      {allOrders.isError && !error && (
        <DismissibleErrorAlert message="Failed to fetch orders" onDismiss={() => void allOrders.refetch()} />
      )}
      <TotalsPanel
        orders={allOrders.data}
        packagePrice={packagePrice}
        vatRate={vatRate}
        onExport={() => void handleExport()}
        exporting={exporting}
      />
      <Tabs value={tab} onValueChange={setTab}>
        <TabsList>
          <TabsTrigger value="tablers">Tablers</TabsTrigger>
          <TabsTrigger value="orders">Bestellingen</TabsTrigger>
          <TabsTrigger value="mail">Mail</TabsTrigger>
        </TabsList>
        <TabsContent value="tablers">
          <TablersTab onError={setError} />
        </TabsContent>
        <TabsContent value="orders">
          <OrdersTab filters={filters} onFiltersChange={handleFiltersChange} onError={setError} />
        </TabsContent>
        <TabsContent value="mail">
          <MailTab onError={setError} />
        </TabsContent>
      </Tabs>
    </AdminPage>
  );
}
