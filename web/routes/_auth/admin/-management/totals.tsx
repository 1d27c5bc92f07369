import DownloadIcon from "lucide-react/icons/download";
import * as React from "react";

import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { formatEuro, type Order, UNKNOWN_TABLER } from "./shared";

// Issue 6 item 7: the numbers a treasurer asks for, over all orders of the campaign.

export type CampaignTotals = {
  orders: number;
  packages: number;
  paidOrders: number;
  paidPackages: number;
  openOrders: number;
  openPackages: number;
  invoicesSent: number;
  /** Invoice numbered but the mail still waits in the outbox. */
  invoicesQueued: number;
  perTabler: { name: string; packages: number; orders: number }[];
};

export function computeTotals(orders: readonly Order[]): CampaignTotals {
  const totals: CampaignTotals = {
    orders: 0,
    packages: 0,
    paidOrders: 0,
    paidPackages: 0,
    openOrders: 0,
    openPackages: 0,
    invoicesSent: 0,
    invoicesQueued: 0,
    perTabler: [],
  };
  const perTabler = new Map<string, { name: string; packages: number; orders: number }>();
  for (const order of orders) {
    totals.orders += 1;
    totals.packages += order.amount;
    if (order.paid) {
      totals.paidOrders += 1;
      totals.paidPackages += order.amount;
    } else {
      totals.openOrders += 1;
      totals.openPackages += order.amount;
    }
    if (order.invoice_sent) totals.invoicesSent += 1;
    else if (order.invoice_number) totals.invoicesQueued += 1;
    const name = order.tabler_name ?? UNKNOWN_TABLER;
    const entry = perTabler.get(name) ?? { name, packages: 0, orders: 0 };
    entry.packages += order.amount;
    entry.orders += 1;
    perTabler.set(name, entry);
  }
  totals.perTabler = [...perTabler.values()].sort((a, b) => b.packages - a.packages || a.name.localeCompare(b.name, "nl"));
  return totals;
}

/** Weighted VAT rate of the vat_split setting when the screen can read it (admins only), else null. */
export function vatRateFromSplit(value: unknown): number | null {
  if (typeof value !== "string") return null;
  try {
    const parts = JSON.parse(value) as { share_percent?: unknown; vat_rate?: unknown }[];
    if (!Array.isArray(parts) || parts.length === 0) return null;
    let rate = 0;
    for (const part of parts) {
      if (typeof part.share_percent !== "number" || typeof part.vat_rate !== "number") return null;
      rate += (part.share_percent / 100) * part.vat_rate;
    }
    return rate;
  } catch {
    return null;
  }
}

function Stat({ label, value, detail, testId }: { label: string; value: React.ReactNode; detail?: React.ReactNode; testId: string }) {
  return (
    <div className="rounded-xl border bg-card p-4" data-stat={testId}>
      <div className="text-xs font-medium text-muted-foreground">{label}</div>
      <div className="mt-1 text-2xl font-semibold tabular-nums" data-slot="stat-value">
        {value}
      </div>
      {detail && <div className="mt-1 text-xs text-muted-foreground">{detail}</div>}
    </div>
  );
}

export function TotalsPanel({
  orders,
  packagePrice,
  vatRate,
  onExport,
  exporting,
}: {
  orders: readonly Order[] | undefined;
  packagePrice: number;
  /** Known VAT rate from the settings, or null: then 21 % is shown as an estimate. */
  vatRate: number | null;
  onExport: () => void;
  exporting: boolean;
}) {
  const totals = React.useMemo(() => (orders ? computeTotals(orders) : null), [orders]);
  const rate = vatRate ?? 21;
  const excl = totals ? totals.packages * packagePrice : 0;
  const incl = excl * (1 + rate / 100);
  return (
    <section aria-label="Campagnetotalen" className="grid gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-lg font-semibold">Campagnetotalen</h2>
        <Button variant="outline" size="sm" onClick={onExport} disabled={exporting}>
          {exporting ? <Spinner label="Bezig met exporteren" /> : <DownloadIcon aria-hidden="true" />}
          CSV exporteren
        </Button>
      </div>
      {!totals ? (
        <div className="flex min-h-24 items-center justify-center rounded-xl border bg-card">
          <Spinner className="size-6 text-primary" label="Totalen laden" />
        </div>
      ) : (
        <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
          <Stat testId="orders" label="Bestellingen" value={totals.orders} detail={`${totals.packages} pakketten`} />
          <Stat
            testId="revenue"
            label="Omzet excl. btw"
            value={formatEuro(excl)}
            detail={
              vatRate === null
                ? `Incl. btw (schatting, 21%): ${formatEuro(incl)}`
                : `Incl. btw (${rate.toLocaleString("nl-NL")}%): ${formatEuro(incl)}`
            }
          />
          <Stat
            testId="paid"
            label="Betaald / open"
            value={`${totals.paidOrders} / ${totals.openOrders}`}
            detail={`${totals.paidPackages} / ${totals.openPackages} pakketten`}
          />
          <Stat testId="invoices" label="Facturen verstuurd" value={totals.invoicesSent} detail={
              totals.invoicesQueued > 0
                ? `van ${totals.orders} bestellingen; ${totals.invoicesQueued} in wachtrij`
                : `van ${totals.orders} bestellingen`
            }
          />
          {totals.perTabler.length > 0 && (
            <div className="rounded-xl border bg-card p-4 sm:col-span-2 lg:col-span-4">
              <div className="text-xs font-medium text-muted-foreground">Pakketten per tabler</div>
              <ul className="mt-2 flex flex-wrap gap-x-6 gap-y-1 text-sm" data-slot="per-tabler">
                {totals.perTabler.map((entry) => (
                  <li key={entry.name}>
                    <span className="font-medium">{entry.name}</span>:{" "}
                    <span className="tabular-nums">{entry.packages}</span>
                    <span className="text-muted-foreground"> ({entry.orders} best.)</span>
                  </li>
                ))}
              </ul>
            </div>
          )}
        </div>
      )}
    </section>
  );
}
