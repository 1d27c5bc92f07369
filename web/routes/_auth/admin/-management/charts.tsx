import * as React from "react";
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, Tooltip, XAxis, YAxis } from "recharts";

import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { formatCount, formatDay, formatEuroNl, formatEuroWhole } from "./charts-format";
import type { CampaignTotals } from "./totals";
import { UNKNOWN_TABLER } from "./shared";

// docs/decisions/024: the campaign over time, in three charts drawn from invoices.totals (no extra call). This
// module is the only importer of recharts and the dashboard loads it with React.lazy, so the library
// stays in a chunk of its own: the figures above show first, and no public page ever downloads it.
//
// Each chart is a figure with a visible title; the drawing itself is one image to assistive technology
// (role=img, the library's keyboard layer off) and the same numbers follow in a table that opens under
// it, so nobody depends on hovering a tooltip.

// The palette has no chart colours; these three stay apart for common colour-vision deficiencies
// (blue, amber, green), and every series is also named in the legend and the table.
const COLOURS = {
  primary: "var(--primary)",
  amber: "oklch(0.705 0.171 58.3)",
  received: "var(--success)",
} as const;

const AXIS_TICK = { fontSize: 12, fill: "var(--muted-foreground)" };
const TOOLTIP_STYLE: React.CSSProperties = {
  borderRadius: "var(--radius-md)",
  border: "1px solid var(--border)",
  background: "var(--popover)",
  color: "var(--popover-foreground)",
  fontSize: 12,
};
// The library colours each line of the tooltip like its series; amber and green text on white falls short
// of 4.5:1 (WCAG 1.4.3), and the series' name already says which it is.
const TOOLTIP_ITEM_STYLE: React.CSSProperties = { color: "var(--popover-foreground)" };
const CHART_MARGIN = { top: 8, right: 12, bottom: 0, left: 0 };

type PerDay = CampaignTotals["per_day"];

/** The calendar day before a 'YYYY-MM-DD' key. */
function dayBefore(key: string): string {
  const date = new Date(`${key}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() - 1);
  return date.toISOString().slice(0, 10);
}

/**
 * Running sums of the money per day: what was invoiced and received up to and including that day,
 * starting from zero the day before the first activity, so the lines rise from the campaign's start
 * (and a campaign of one day still draws lines, not lone dots).
 */
export function cumulativeMoney(perDay: PerDay): { date: string; invoiced: number; received: number }[] {
  const first = perDay[0];
  if (!first) return [];
  let invoiced = 0;
  let received = 0;
  const sums = perDay.map((day) => {
    invoiced += day.invoiced_incl;
    received += day.received_incl;
    // Cents, so adding many days of floating-point euros does not drift.
    return { date: day.date, invoiced: Math.round(invoiced * 100) / 100, received: Math.round(received * 100) / 100 };
  });
  return [{ date: dayBefore(first.date), invoiced: 0, received: 0 }, ...sums];
}

const tooltipNumber = (value: unknown) => formatCount(Number(value));
const tooltipEuro = (value: unknown) => formatEuroNl(Number(value));
const tooltipDay = (label: React.ReactNode) => formatDay(String(label), "long");
const tickDay = (value: unknown) => formatDay(String(value));

export default function CampaignCharts({ totals }: { totals: CampaignTotals }) {
  const money = React.useMemo(() => cumulativeMoney(totals.per_day), [totals.per_day]);
  const tablers = React.useMemo(
    () =>
      totals.per_tabler.map((t) => ({ id: t.tabler_id, name: t.tabler_name ?? UNKNOWN_TABLER, packages: t.packages, orders: t.orders })),
    [totals.per_tabler],
  );
  // One bar of 28 px per tabler, so long lists stay readable instead of squeezed.
  const tablerHeight = Math.max(160, tablers.length * 28 + 48);

  return (
    <div className="grid gap-3 lg:grid-cols-2 xl:grid-cols-3" data-slot="campaign-charts">
      <ChartFigure
        id="per-day"
        title="Bestellingen en pakketten per dag"
        empty={totals.per_day.length === 0}
        table={
          <DataTable
            head={["Dag", "Bestellingen", "Pakketten"]}
            rows={totals.per_day.map((d) => ({
              key: d.date,
              cells: [formatDay(d.date, "long"), formatCount(d.orders), formatCount(d.packages)],
            }))}
          />
        }
      >
        {/* A gap of 1 px within a day: the default 4 px left a campaign of 60 days hairlines of bars. */}
        <BarChart
          data={totals.per_day}
          responsive
          style={{ width: "100%", height: 240 }}
          margin={CHART_MARGIN}
          barGap={1}
          accessibilityLayer={false}
        >
          <CartesianGrid vertical={false} stroke="var(--border)" />
          <XAxis dataKey="date" tickFormatter={tickDay} tick={AXIS_TICK} tickLine={false} axisLine={false} minTickGap={12} />
          {/* Both value axes are as wide as their longest label: thousands a day and millions of euros fit. */}
          <YAxis allowDecimals={false} tickFormatter={tooltipNumber} tick={AXIS_TICK} tickLine={false} axisLine={false} width="auto" />
          <Tooltip
            formatter={tooltipNumber}
            labelFormatter={tooltipDay}
            contentStyle={TOOLTIP_STYLE}
            itemStyle={TOOLTIP_ITEM_STYLE}
            cursor={{ fill: "var(--muted)" }}
          />
          <Legend iconType="square" wrapperStyle={{ fontSize: 12 }} />
          <Bar
            dataKey="orders"
            name="Bestellingen"
            fill={COLOURS.primary}
            radius={[3, 3, 0, 0]}
            maxBarSize={32}
            isAnimationActive={false}
          />
          <Bar dataKey="packages" name="Pakketten" fill={COLOURS.amber} radius={[3, 3, 0, 0]} maxBarSize={32} isAnimationActive={false} />
        </BarChart>
      </ChartFigure>

      <ChartFigure
        id="money"
        title="Gefactureerd en ontvangen (cumulatief, incl. btw)"
        empty={money.length === 0}
        table={
          <DataTable
            head={["Dag", "Gefactureerd t/m die dag", "Ontvangen t/m die dag"]}
            rows={money
              .slice(1)
              .map((d) => ({ key: d.date, cells: [formatDay(d.date, "long"), formatEuroNl(d.invoiced), formatEuroNl(d.received)] }))}
          />
        }
      >
        <LineChart data={money} responsive style={{ width: "100%", height: 240 }} margin={CHART_MARGIN} accessibilityLayer={false}>
          <CartesianGrid vertical={false} stroke="var(--border)" />
          <XAxis dataKey="date" tickFormatter={tickDay} tick={AXIS_TICK} tickLine={false} axisLine={false} minTickGap={12} />
          <YAxis tickFormatter={formatEuroWhole} tick={AXIS_TICK} tickLine={false} axisLine={false} width="auto" />
          <Tooltip formatter={tooltipEuro} labelFormatter={tooltipDay} contentStyle={TOOLTIP_STYLE} itemStyle={TOOLTIP_ITEM_STYLE} />
          <Legend iconType="plainline" wrapperStyle={{ fontSize: 12 }} />
          <Line
            type="stepAfter"
            dataKey="invoiced"
            name="Gefactureerd"
            stroke={COLOURS.primary}
            strokeWidth={2}
            dot={false}
            isAnimationActive={false}
          />
          <Line
            type="stepAfter"
            dataKey="received"
            name="Ontvangen"
            stroke={COLOURS.received}
            strokeWidth={2}
            strokeDasharray="6 3"
            dot={false}
            isAnimationActive={false}
          />
        </LineChart>
      </ChartFigure>

      <ChartFigure
        id="per-tabler"
        title="Pakketten per tabler"
        empty={tablers.length === 0}
        className="lg:col-span-2 xl:col-span-1"
        table={
          <DataTable
            head={["Tabler", "Pakketten", "Bestellingen"]}
            rows={tablers.map((t) => ({ key: String(t.id), cells: [t.name, formatCount(t.packages), formatCount(t.orders)] }))}
          />
        }
      >
        <BarChart
          data={tablers}
          layout="vertical"
          responsive
          style={{ width: "100%", height: tablerHeight }}
          margin={CHART_MARGIN}
          accessibilityLayer={false}
        >
          <CartesianGrid horizontal={false} stroke="var(--border)" />
          <XAxis type="number" allowDecimals={false} tickFormatter={tooltipNumber} tick={AXIS_TICK} tickLine={false} axisLine={false} />
          <YAxis type="category" dataKey="name" tick={AXIS_TICK} tickLine={false} axisLine={false} width={120} />
          <Tooltip
            formatter={tooltipNumber}
            contentStyle={TOOLTIP_STYLE}
            itemStyle={TOOLTIP_ITEM_STYLE}
            cursor={{ fill: "var(--muted)" }}
          />
          <Bar dataKey="packages" name="Pakketten" fill={COLOURS.primary} radius={[0, 3, 3, 0]} maxBarSize={20} isAnimationActive={false} />
        </BarChart>
      </ChartFigure>
    </div>
  );
}

function ChartFigure({
  id,
  title,
  empty,
  table,
  className,
  children,
}: {
  id: string;
  title: string;
  empty: boolean;
  table: React.ReactNode;
  className?: string;
  children: React.ReactNode;
}) {
  const titleId = `chart-${id}-title`;
  return (
    <figure
      data-chart={id}
      aria-labelledby={titleId}
      className={`grid min-w-0 content-start gap-3 rounded-xl border bg-card p-4 ${className ?? ""}`}
    >
      <figcaption>
        <h3 id={titleId} className="text-sm font-semibold">
          {title}
        </h3>
      </figcaption>
      {empty ? (
        <p className="flex min-h-24 items-center justify-center text-sm text-muted-foreground">Nog geen gegevens.</p>
      ) : (
        <>
          <div role="img" aria-label={`Grafiek: ${title}. De cijfers staan in de tabel hieronder.`} className="min-w-0">
            {children}
          </div>
          <details className="min-w-0 text-sm">
            <summary className="w-fit cursor-pointer rounded-sm text-xs font-medium text-primary outline-none hover:underline focus-visible:ring-[3px] focus-visible:ring-ring/50">
              Toon als tabel
            </summary>
            <div className="mt-2">{table}</div>
          </details>
        </>
      )}
    </figure>
  );
}

/** A chart's data as a table; each row has a key of its own (its day, its tabler). */
function DataTable({ head, rows }: { head: readonly string[]; rows: readonly { key: string; cells: readonly string[] }[] }) {
  return (
    <Table className="text-xs">
      <TableHeader>
        <TableRow>
          {head.map((label, i) => (
            <TableHead key={label} className={i === 0 ? "h-8" : "h-8 text-right"}>
              {label}
            </TableHead>
          ))}
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map((row) => (
          <TableRow key={row.key}>
            {row.cells.map((cell, i) => (
              <TableCell key={head[i]} className={i === 0 ? "py-1.5" : "py-1.5 text-right tabular-nums"}>
                {cell}
              </TableCell>
            ))}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
