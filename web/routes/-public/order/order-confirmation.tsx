import CircleCheckBigIcon from "lucide-react/icons/circle-check-big";
import CloudOffIcon from "lucide-react/icons/cloud-off";
import PlusIcon from "lucide-react/icons/plus";
import RotateCcwIcon from "lucide-react/icons/rotate-ccw";
import type * as React from "react";

import { Button } from "@/components/ui/button";
import { formatEuro } from "@/lib/site";
import type { PlacedOrder } from "./order-form";

/**
 * docs/product.md §8 'Order success', word for word. It stays, as the specification's texts do; the
 * member who took the order is named under it ('Opgenomen door'), so the screen says who that member is
 * (docs/decisions/056).
 */
export const ORDER_SUCCESS =
  "Uw bestelling is succesvol ontvangen. Een lid van de club zal contact met u opnemen voor verdere afhandeling.";

/** An order taken without a connection (docs/decisions/069): kept in the outbox, no reference yet. */
export const ORDER_SAVED = "Opgeslagen op deze telefoon; wordt verstuurd zodra er verbinding is.";

/**
 * docs/product.md §2 "Order screen": 'Bestelling Ontvangen!' with every detail and 'Nieuwe Bestelling', which starts
 * over at the password step. 'Nog een bestelling' keeps the tabler, for a member taking orders
 * door to door. An order that waits in the outbox gets the same screen, saying it is stored, without a reference.
 */
export function OrderConfirmation({
  order,
  packagePrice,
  headingRef,
  onNewOrder,
  onAnotherOrder,
}: {
  order: PlacedOrder;
  packagePrice: number;
  headingRef: React.Ref<HTMLHeadingElement>;
  /** Absent on a seller's own page (docs/decisions/070): there is no gate to start over at, and the customer ordered through the seller. */
  onNewOrder?: () => void;
  onAnotherOrder: () => void;
}) {
  const throughSeller = onNewOrder === undefined;
  const saved = order.reference === null;
  const rows: { label: string; value: React.ReactNode }[] = [
    ...(order.reference === null
      ? []
      : [{ label: "Bestelnummer", value: <span className="font-mono font-semibold">{order.reference}</span> }]),
    { label: "Naam", value: order.name },
    { label: "Email", value: order.email },
    { label: "Telefoon", value: order.phone },
    { label: "Aantal kerstpakketten", value: order.quantity },
    {
      label: "Adres",
      value: (
        <>
          {order.address}
          <br />
          {order.postalCode} {order.city}
        </>
      ),
    },
    { label: "Opmerkingen", value: order.notes === "" ? <span className="text-muted-foreground">Geen</span> : order.notes },
    { label: "Bedrag", value: `€ ${formatEuro(order.quantity * packagePrice)}, exclusief btw` },
    { label: throughSeller ? "Besteld via" : "Opgenomen door", value: order.tabler.name },
  ];

  return (
    <div data-slot="order-confirmation" data-saved={saved || undefined} className="flex flex-col gap-6">
      <div className="flex flex-col items-center gap-3 text-center">
        {saved ? (
          <span aria-hidden="true" className="flex size-14 items-center justify-center rounded-full bg-accent text-accent-foreground">
            <CloudOffIcon className="size-8" />
          </span>
        ) : (
          <span aria-hidden="true" className="flex size-14 items-center justify-center rounded-full bg-success/10 text-success">
            <CircleCheckBigIcon className="size-8" />
          </span>
        )}
        <h2 ref={headingRef} tabIndex={-1} className="text-2xl font-bold tracking-tight outline-none">
          {saved ? "Bestelling Opgeslagen" : "Bestelling Ontvangen!"}
        </h2>
        <p role="status" className="max-w-md leading-relaxed text-pretty text-foreground/85">
          {saved ? ORDER_SAVED : ORDER_SUCCESS}
        </p>
      </div>
      <dl className="divide-y rounded-lg border bg-muted/40 text-sm">
        {rows.map(({ label, value }) => (
          <div key={label} data-field={label} className="grid gap-1 px-4 py-3 sm:grid-cols-[12rem_minmax(0,1fr)] sm:gap-4">
            <dt className="font-medium text-foreground/75">{label}</dt>
            <dd className="break-words whitespace-pre-line">{value}</dd>
          </div>
        ))}
      </dl>
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-center">
        {onNewOrder && (
          <Button type="button" variant="outline" size="lg" onClick={onNewOrder}>
            <RotateCcwIcon aria-hidden="true" />
            Nieuwe Bestelling
          </Button>
        )}
        <Button type="button" size="lg" onClick={onAnotherOrder}>
          <PlusIcon aria-hidden="true" />
          Nog een bestelling
        </Button>
      </div>
      <p className="text-center text-sm text-muted-foreground">
        {throughSeller
          ? `Met ‘Nog een bestelling’ bestel je nog eens via ${order.tabler.name}.`
          : `Met ‘Nog een bestelling’ blijf je bestellen voor tabler ${order.tabler.name}.`}
      </p>
    </div>
  );
}
