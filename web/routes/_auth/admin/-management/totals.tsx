import DownloadIcon from "lucide-react/icons/download";
import type * as React from "react";

import { Button } from "@/components/ui/button";
import { Progress } from "@/components/ui/progress";
import { Spinner } from "@/components/ui/spinner";
import type { RouterOutputs } from "@/lib/trpc";
import { formatCount, formatEuroNl, percentOf } from "./charts-format";
import { JournalDownload } from "./journal-download";
import { UNKNOWN_TABLER } from "./shared";

// docs/decisions/024: the numbers a treasurer asks for, over the whole campaign. The server sums
// them in SQL (invoices.totals, cancelled orders left out), so the browser never loads every order for
// them and they agree with the invoices to the cent. Part-payments count as received, and only the rest
// of their orders as open (docs/decisions/057).

export type CampaignTotals = RouterOutputs["invoices"]["totals"];

function Stat({
  label,
  value,
  detail,
  testId,
  children,
}: {
  label: string;
  value: React.ReactNode;
  detail?: React.ReactNode;
  testId: string;
  children?: React.ReactNode;
}) {
  return (
    <div className="rounded-xl border bg-card p-4" data-stat={testId}>
      <div className="text-xs font-medium text-muted-foreground">{label}</div>
      <div className="mt-1 text-2xl font-semibold tabular-nums" data-slot="stat-value">
        {value}
      </div>
      {detail && <div className="mt-1 text-xs text-muted-foreground">{detail}</div>}
      {children}
    </div>
  );
}

export function TotalsPanel({
  totals,
  failed,
  onExport,
  exporting,
  children,
}: {
  totals: CampaignTotals | undefined;
  /** The totals could not be loaded (the page shows the error banner); stop the spinner. */
  failed: boolean;
  onExport: () => void;
  exporting: boolean;
  /** Shown under the figures once they are there: the charts. */
  children?: React.ReactNode;
}) {
  const paidShare = totals ? percentOf(totals.paid.amount_incl, totals.revenue_incl) : 0;
  return (
    <section aria-labelledby="campaign-totals-title" className="grid gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="campaign-totals-title" className="text-lg font-semibold">
          Campagnetotalen
        </h2>
        <div className="flex flex-wrap items-center gap-2">
          <Button variant="outline" size="sm" onClick={onExport} disabled={exporting}>
            {exporting ? <Spinner label="Bezig met exporteren" /> : <DownloadIcon aria-hidden="true" />}
            CSV exporteren
          </Button>
          <JournalDownload />
        </div>
      </div>
      {!totals ? (
        <div className="flex min-h-24 items-center justify-center rounded-xl border bg-card text-sm text-muted-foreground">
          {failed ? "Geen totalen beschikbaar." : <Spinner className="size-6 text-primary" label="Totalen laden" />}
        </div>
      ) : (
        <>
          <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
            <Stat
              testId="orders"
              label="Bestellingen"
              value={formatCount(totals.orders)}
              detail={`${formatCount(totals.packages)} ${totals.packages === 1 ? "pakket" : "pakketten"}`}
            />
            <Stat
              testId="revenue"
              label="Omzet excl. btw"
              value={formatEuroNl(totals.revenue_excl)}
              detail={`Incl. btw: ${formatEuroNl(totals.revenue_incl)}`}
            />
            <Stat
              testId="paid"
              label="Betaald / open"
              value={`${formatCount(totals.paid.orders)} / ${formatCount(totals.open.orders)}`}
              detail={
                <>
                  <span data-slot="paid-amounts">
                    <span className="font-medium text-success">{formatEuroNl(totals.paid.amount_incl)}</span> ontvangen ·{" "}
                    <span className="font-medium text-foreground">{formatEuroNl(totals.open.amount_incl)}</span> open (incl. btw)
                  </span>
                  {/* docs/decisions/057: the part-payments are in what came in; their orders still count as open. */}
                  {totals.part_paid.orders > 0 && (
                    <span data-slot="part-paid-amounts" className="mt-0.5 block">
                      Deels betaald: {formatCount(totals.part_paid.orders)} {totals.part_paid.orders === 1 ? "bestelling" : "bestellingen"}{" "}
                      ({formatEuroNl(totals.part_paid.amount_incl)} ontvangen)
                    </span>
                  )}
                </>
              }
            >
              <Progress
                value={paidShare}
                className="mt-2 h-1.5 bg-muted [&>[data-slot=progress-indicator]]:bg-success"
                aria-label={`Betaald: ${paidShare}% van het bedrag incl. btw`}
              />
            </Stat>
            <Stat
              testId="invoices"
              label="Facturen verstuurd"
              value={formatCount(totals.invoices_sent)}
              detail={`van ${formatCount(totals.orders)} ${totals.orders === 1 ? "bestelling" : "bestellingen"}`}
            />
            {totals.per_tabler.length > 0 && (
              // Who sold what: a leaderboard, most packages first, with the money each seller's orders bring.
              <div className="rounded-xl border bg-card p-4 sm:col-span-2 lg:col-span-4">
                <h3 className="text-xs font-medium text-muted-foreground">Verkopers: pakketten per tabler</h3>
                <ol className="mt-2 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2 lg:grid-cols-3" data-slot="per-tabler">
                  {totals.per_tabler.map((entry, index) => (
                    <li key={entry.tabler_id ?? "none"} className="flex items-baseline gap-2">
                      <span className="w-6 shrink-0 text-right text-muted-foreground tabular-nums">{index + 1}.</span>
                      <div className="min-w-0">
                        <div>
                          <span className="font-medium">{entry.tabler_name ?? UNKNOWN_TABLER}</span>:{" "}
                          <span className="tabular-nums">{formatCount(entry.packages)}</span>
                          <span className="text-muted-foreground">
                            {" "}
                            {entry.packages === 1 ? "pakket" : "pakketten"} ({formatCount(entry.orders)} best.)
                          </span>
                        </div>
                        <div className="text-xs text-muted-foreground tabular-nums" data-slot="per-tabler-amounts">
                          {formatEuroNl(entry.amount_incl)} incl. btw · {formatEuroNl(entry.paid_amount_incl)} betaald
                        </div>
                      </div>
                    </li>
                  ))}
                </ol>
              </div>
            )}
          </div>
          {children}
        </>
      )}
    </section>
  );
}
