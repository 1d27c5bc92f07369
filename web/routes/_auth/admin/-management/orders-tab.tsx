import { keepPreviousData, useMutation, useQuery } from "@tanstack/react-query";
import FileTextIcon from "lucide-react/icons/file-text";
import PencilIcon from "lucide-react/icons/pencil";
import PlusIcon from "lucide-react/icons/plus";
import SendIcon from "lucide-react/icons/send";
import Trash2Icon from "lucide-react/icons/trash-2";
import * as React from "react";

import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Input } from "@/components/ui/input";
import { NativeSelect } from "@/components/ui/native-select";
import { Label } from "@/components/ui/label";
import { useSnackbar } from "@/components/ui/snackbar";
import { Spinner } from "@/components/ui/spinner";
import { Switch } from "@/components/ui/switch";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useTrpc } from "@/lib/auth";
import { errorText } from "@/lib/errors";
import { LoadError, LoadingState } from "../-components/admin-page";
import { OrderDialog } from "./order-dialog";
import { formatNlDate, formatNlDay, type Order, type OrderFilters, type Tabler, UNKNOWN_TABLER, useOrdersCache } from "./shared";

// spec §2 tab Bestellingen; §4 paid and invoice states; §8 messages. Issue 6 item 8: the server
// filters, the table shows 50 rows a page, and edits change the cache instead of reloading.

export const PAGE_SIZE = 50;
const SEARCH_DEBOUNCE_MS = 300;

export function OrdersTab({
  filters,
  onFiltersChange,
  onError,
}: {
  filters: OrderFilters;
  onFiltersChange: (filters: OrderFilters) => void;
  onError: (message: string) => void;
}) {
  const trpc = useTrpc();
  const ordersQuery = useQuery({ ...trpc.orders.list.queryOptions(filters), placeholderData: keepPreviousData });
  const tablersQuery = useQuery(trpc.tablers.list.queryOptions());
  const tablers = tablersQuery.data ?? [];
  const [search, setSearch] = React.useState(filters.q ?? "");
  const [page, setPage] = React.useState(0);
  const [editing, setEditing] = React.useState<Order | "new" | null>(null);

  // Debounced text search, sent to the server.
  React.useEffect(() => {
    const q = search.trim();
    if (q === (filters.q ?? "")) return;
    const timer = window.setTimeout(() => onFiltersChange({ ...filters, q: q || undefined }), SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [search, filters, onFiltersChange]);

  const filterKey = JSON.stringify(filters);
  React.useEffect(() => setPage(0), [filterKey]);

  const orders = ordersQuery.data;
  const pageCount = orders ? Math.max(1, Math.ceil(orders.length / PAGE_SIZE)) : 1;
  const currentPage = Math.min(page, pageCount - 1);
  const rows = orders?.slice(currentPage * PAGE_SIZE, (currentPage + 1) * PAGE_SIZE) ?? [];

  return (
    <div className="grid gap-3">
      <div className="flex flex-wrap items-end gap-3">
        <div className="grid min-w-48 flex-1 gap-1">
          <Label htmlFor="orders-search">Zoeken</Label>
          <Input
            id="orders-search"
            type="search"
            placeholder="Naam, email, adres, bestelnummer…"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
        </div>
        <div className="grid gap-1">
          <Label htmlFor="filter-paid">Betaald</Label>
          <NativeSelect
            id="filter-paid"
            value={filters.paid ?? ""}
            onChange={(e) => onFiltersChange({ ...filters, paid: (e.target.value || undefined) as OrderFilters["paid"] })}
          >
            <option value="">Alle</option>
            <option value="true">Betaald</option>
            <option value="false">Open</option>
          </NativeSelect>
        </div>
        <div className="grid gap-1">
          <Label htmlFor="filter-invoice">Factuur</Label>
          <NativeSelect
            id="filter-invoice"
            value={filters.invoice_sent ?? ""}
            onChange={(e) =>
              onFiltersChange({ ...filters, invoice_sent: (e.target.value || undefined) as OrderFilters["invoice_sent"] })
            }
          >
            <option value="">Alle</option>
            <option value="true">Verstuurd</option>
            <option value="false">Niet verstuurd</option>
          </NativeSelect>
        </div>
        <div className="grid gap-1">
          <Label htmlFor="filter-tabler">Tabler</Label>
          <NativeSelect
            id="filter-tabler"
            value={filters.tabler_id ?? ""}
            onChange={(e) => onFiltersChange({ ...filters, tabler_id: e.target.value || undefined })}
          >
            <option value="">Alle</option>
            {tablers.map((t) => (
              <option key={t.id} value={String(t.id)}>
                {t.name}
              </option>
            ))}
            <option value="none">{UNKNOWN_TABLER}</option>
          </NativeSelect>
        </div>
        <Button onClick={() => setEditing("new")}>
          <PlusIcon aria-hidden="true" />
          Nieuwe Bestelling
        </Button>
      </div>

      {ordersQuery.isPending ? (
        <LoadingState label="Bestellingen laden" />
      ) : ordersQuery.isError ? (
        <LoadError
          title="Failed to fetch orders"
          error={ordersQuery.error}
          onRetry={() => void ordersQuery.refetch()}
          retrying={ordersQuery.isFetching}
        />
      ) : (
        <>
          <div className="flex items-center justify-between text-sm text-muted-foreground">
            <span data-slot="orders-count">
              {orders!.length} {orders!.length === 1 ? "bestelling" : "bestellingen"}
              {ordersQuery.isFetching && <Spinner className="ml-2 inline size-3" label="Bijwerken" />}
            </span>
            {pageCount > 1 && (
              <span className="flex items-center gap-2">
                <Button variant="outline" size="sm" disabled={currentPage === 0} onClick={() => setPage(currentPage - 1)}>
                  Vorige
                </Button>
                Pagina {currentPage + 1} van {pageCount}
                <Button variant="outline" size="sm" disabled={currentPage >= pageCount - 1} onClick={() => setPage(currentPage + 1)}>
                  Volgende
                </Button>
              </span>
            )}
          </div>
          <div className="hidden overflow-x-auto rounded-xl border bg-card md:block">
            <Table className="text-[13px]">
              <TableHeader>
                <TableRow>
                  <TableHead>Bestelnummer</TableHead>
                  <TableHead>Tabler</TableHead>
                  <TableHead>Naam</TableHead>
                  <TableHead>Email</TableHead>
                  <TableHead>Telefoon</TableHead>
                  <TableHead>Adres</TableHead>
                  <TableHead className="text-right">Aantal</TableHead>
                  <TableHead>Betaald</TableHead>
                  <TableHead>Factuur</TableHead>
                  <TableHead>Besteld op</TableHead>
                  <TableHead className="text-right">Acties</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {rows.length === 0 ? (
                  <TableRow>
                    <TableCell colSpan={11} className="text-center text-muted-foreground">
                      Geen bestellingen gevonden.
                    </TableCell>
                  </TableRow>
                ) : (
                  rows.map((order) => <OrderRow key={order.id} order={order} onEdit={setEditing} onError={onError} variant="row" />)
                )}
              </TableBody>
            </Table>
          </div>
          <div className="grid gap-3 md:hidden">
            {rows.length === 0 ? (
              <p className="rounded-xl border bg-card p-4 text-center text-sm text-muted-foreground">Geen bestellingen gevonden.</p>
            ) : (
              rows.map((order) => <OrderRow key={order.id} order={order} onEdit={setEditing} onError={onError} variant="card" />)
            )}
          </div>
        </>
      )}
      <OrderDialog order={editing} tablers={tablers} onClose={() => setEditing(null)} onError={onError} />
    </div>
  );
}

type Confirming = "delete" | "invoice" | null;

const OrderRow = React.memo(function OrderRow({
  order,
  onEdit,
  onError,
  variant,
}: {
  order: Order;
  onEdit: (order: Order) => void;
  onError: (message: string) => void;
  /** A table row (tablet and desktop) or a card (phones). */
  variant: "row" | "card";
}) {
  const trpc = useTrpc();
  const cache = useOrdersCache();
  const { showSnackbar } = useSnackbar();
  const [confirming, setConfirming] = React.useState<Confirming>(null);
  const setPaid = useMutation(trpc.orders.setPaid.mutationOptions());
  const deleteOrder = useMutation(trpc.orders.delete.mutationOptions());
  const sendInvoice = useMutation(trpc.invoices.send.mutationOptions());

  async function togglePaid(paid: boolean) {
    await cache.cancel();
    const snapshot = cache.snapshot();
    cache.update((orders) => orders.map((o) => (o.id === order.id ? { ...o, paid } : o)));
    try {
      await setPaid.mutateAsync({ id: order.id, paid });
    } catch (error) {
      cache.restore(snapshot);
      onError(errorText(error, "Failed to update order"));
    }
  }

  async function handleDelete() {
    try {
      await deleteOrder.mutateAsync({ id: order.id });
      cache.update((orders) => orders.filter((o) => o.id !== order.id));
      showSnackbar(`Bestelling ${order.reference} verwijderd`, "success");
    } catch (error) {
      onError(errorText(error, "Failed to delete order"));
    }
  }

  async function handleSendInvoice() {
    try {
      const result = await sendInvoice.mutateAsync({ id: order.id });
      cache.update((orders) =>
        orders.map((o) =>
          o.id === order.id ? { ...o, invoice_number: result.invoice_number, invoice_sent: o.invoice_sent || !result.queued } : o,
        ),
      );
      showSnackbar(result.message, result.queued ? "info" : "success");
    } catch (error) {
      onError(errorText(error, "Failed to send invoice"));
    }
  }

  const resend = order.invoice_number !== null;
  const paidSwitch = (
    <Switch checked={order.paid} onCheckedChange={(paid) => void togglePaid(paid)} aria-label={`Betaald ${order.reference}`} />
  );
  const invoice = (
    <div className="flex flex-col items-start gap-1">
      <span data-slot="invoice-status" className={order.invoice_number ? "font-mono text-xs" : "text-muted-foreground"}>
        {order.invoice_number ?? "Niet verstuurd"}
        {order.invoice_number && !order.invoice_sent && <span className="ml-1 text-muted-foreground">(in wachtrij)</span>}
      </span>
      <span className="flex gap-1">
        <Button variant="outline" size="sm" className="h-7 px-2 text-xs" onClick={() => setConfirming("invoice")}>
          <SendIcon aria-hidden="true" />
          {resend ? "Opnieuw versturen" : "Factuur versturen"}
        </Button>
        {order.invoice_number && (
          <a
            href={`/orders/invoice.pdf?id=${order.id}`}
            target="_blank"
            rel="noopener"
            className="inline-flex h-7 items-center gap-1 rounded-md px-2 text-xs text-primary hover:underline"
            aria-label={`Factuur ${order.invoice_number} (PDF)`}
          >
            <FileTextIcon aria-hidden="true" className="size-3.5" />
            PDF
          </a>
        )}
      </span>
    </div>
  );
  const actions = (
    <>
      <Button variant="ghost" size="icon" className="size-8" aria-label={`Bestelling ${order.reference} bewerken`} onClick={() => onEdit(order)}>
        <PencilIcon aria-hidden="true" />
      </Button>
      <Button
        variant="ghost"
        size="icon"
        className="size-8 text-destructive hover:bg-destructive/10 hover:text-destructive"
        aria-label={`Bestelling ${order.reference} verwijderen`}
        onClick={() => setConfirming("delete")}
      >
        <Trash2Icon aria-hidden="true" />
      </Button>
      <ConfirmDialog
        open={confirming === "delete"}
        onOpenChange={(open) => !open && setConfirming(null)}
        title="Bestelling verwijderen?"
        message={`Weet je zeker dat je bestelling ${order.reference} van ${order.name} wilt verwijderen? Dit kan niet ongedaan worden gemaakt.`}
        confirmText="Verwijderen"
        cancelText="Annuleren"
        destructive
        onConfirm={handleDelete}
      />
      <ConfirmDialog
        open={confirming === "invoice"}
        onOpenChange={(open) => !open && setConfirming(null)}
        title={resend ? "Factuur opnieuw versturen?" : "Factuur versturen?"}
        message={
          resend
            ? `Weet je zeker dat je factuur ${order.invoice_number} opnieuw wilt versturen naar ${order.email}?`
            : `Weet je zeker dat je de factuur voor bestelling ${order.reference} wilt versturen naar ${order.email}?`
        }
        confirmText={resend ? "Opnieuw versturen" : "Versturen"}
        cancelText="Annuleren"
        onConfirm={handleSendInvoice}
      />
    </>
  );
  const tablerName = order.tabler_name ?? UNKNOWN_TABLER;

  if (variant === "card") {
    return (
      <article data-order-card={order.reference} className="grid gap-2 rounded-xl border bg-card p-4 text-sm">
        <div className="flex items-start justify-between gap-2">
          <div className="min-w-0">
            <div className="font-medium">{order.name}</div>
            <div className="font-mono text-xs text-muted-foreground">{order.reference}</div>
          </div>
          <div className="flex shrink-0">{actions}</div>
        </div>
        <div className="grid gap-0.5 text-muted-foreground">
          <span className="truncate">{order.email}</span>
          <span>{order.phone}</span>
          <span>
            {order.address}, {order.postal_code} {order.city}
          </span>
          {order.notes && <span className="text-xs">{order.notes}</span>}
        </div>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <span>
            Tabler: <span className={order.tabler_name ? "font-medium" : "italic"}>{tablerName}</span>
          </span>
          <span>
            Aantal: <span className="font-medium tabular-nums">{order.amount}</span>
          </span>
          <span className="flex items-center gap-2">Betaald {paidSwitch}</span>
        </div>
        <div className="flex flex-wrap items-end justify-between gap-2">
          {invoice}
          <span className="text-xs text-muted-foreground">Besteld op {formatNlDate(order.created_at)}</span>
        </div>
      </article>
    );
  }

  return (
    <TableRow data-order={order.reference}>
      <TableCell className="font-mono text-xs whitespace-nowrap">{order.reference}</TableCell>
      <TableCell className={order.tabler_name ? "min-w-24 whitespace-normal" : "min-w-24 whitespace-normal text-muted-foreground italic"}>
        {tablerName}
      </TableCell>
      <TableCell className="min-w-24 font-medium whitespace-normal">{order.name}</TableCell>
      <TableCell className="max-w-44 truncate" title={order.email}>
        {order.email}
      </TableCell>
      <TableCell className="whitespace-nowrap">{order.phone}</TableCell>
      <TableCell className="min-w-36 whitespace-normal">
        <div>{order.address}</div>
        <div className="whitespace-nowrap">
          {order.postal_code} {order.city}
        </div>
        {order.notes && <div className="text-xs text-muted-foreground">{order.notes}</div>}
      </TableCell>
      <TableCell className="text-right tabular-nums">{order.amount}</TableCell>
      <TableCell>{paidSwitch}</TableCell>
      <TableCell className="whitespace-nowrap">{invoice}</TableCell>
      <TableCell className="whitespace-nowrap" title={formatNlDate(order.created_at)}>
        {formatNlDay(order.created_at)}
      </TableCell>
      <TableCell className="text-right whitespace-nowrap">{actions}</TableCell>
    </TableRow>
  );
});

export type { Tabler };
