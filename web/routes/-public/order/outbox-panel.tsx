import CircleCheckIcon from "lucide-react/icons/circle-check";
import CloudUploadIcon from "lucide-react/icons/cloud-upload";
import LoaderCircleIcon from "lucide-react/icons/loader-circle";
import * as React from "react";

import { Button } from "@/components/ui/button";
import type { OutboxEntry } from "@/lib/outbox";
import type { OutboxState } from "./use-outbox";

// DESIGN §6 "The door": "Nog te versturen: N" while the phone holds orders that have not reached the server, each
// with why its last send failed, and 'Verstuur nu'. With none waiting the panel is gone; right after a send that
// emptied it, one line says so (docs/decisions/069).

const ConfirmDialog = React.lazy(() => import("@/components/ui/confirm-dialog").then((module) => ({ default: module.ConfirmDialog })));

const takenAt = (entry: OutboxEntry) =>
  new Date(entry.takenAt).toLocaleString("nl-NL", { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });

export function OutboxPanel({ outbox }: { outbox: OutboxState }) {
  const { entries, sending, allSent, flush, remove } = outbox;
  const [removing, setRemoving] = React.useState<OutboxEntry | null>(null);

  if (entries.length === 0) {
    if (!allSent) return null;
    return (
      <p
        role="status"
        data-slot="order-outbox"
        className="flex items-center gap-2 rounded-xl border border-success/30 bg-success/10 px-4 py-3 text-sm font-medium text-success"
      >
        <CircleCheckIcon aria-hidden="true" className="size-4 shrink-0" />
        Alle bestellingen zijn verstuurd.
      </p>
    );
  }

  const sendable = entries.some((entry) => !entry.refused);
  return (
    <section
      data-slot="order-outbox"
      aria-label="Bestellingen op deze telefoon"
      className="rounded-xl border border-info/30 bg-accent p-4 shadow-sm"
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p role="status" className="flex items-center gap-2 font-semibold text-accent-foreground">
          <CloudUploadIcon aria-hidden="true" className="size-5 shrink-0" />
          Nog te versturen: {entries.length}
        </p>
        {sendable && (
          <Button type="button" size="sm" onClick={() => void flush()} disabled={sending} aria-busy={sending || undefined}>
            {sending && <LoaderCircleIcon aria-hidden="true" className="animate-spin" />}
            {sending ? "Bezig met versturen..." : "Verstuur nu"}
          </Button>
        )}
      </div>
      <ul className="mt-3 flex flex-col divide-y divide-info/15 text-sm">
        {entries.map((entry) => (
          <li key={entry.key} data-slot="outbox-entry" className="flex items-start justify-between gap-3 py-2">
            <div className="min-w-0">
              <p className="font-medium break-words">
                {entry.request.name} · {entry.request.quantity} {entry.request.quantity === 1 ? "pakket" : "pakketten"}
              </p>
              <p className="text-foreground/70">
                {entry.request.address}, {entry.request.city} · {takenAt(entry)}
              </p>
              {entry.failure && (
                <p data-slot="outbox-failure" className={entry.refused ? "font-medium text-destructive-text" : "text-foreground/70"}>
                  {entry.refused ? `Geweigerd: ${entry.failure}` : `Niet verstuurd: ${entry.failure}`}
                </p>
              )}
            </div>
            {entry.refused && (
              <Button type="button" variant="outline" size="sm" onClick={() => setRemoving(entry)}>
                Verwijderen
              </Button>
            )}
          </li>
        ))}
      </ul>
      {removing && (
        <React.Suspense fallback={null}>
          <ConfirmDialog
            open
            onOpenChange={(open) => {
              if (!open) setRemoving(null);
            }}
            title="Bestelling verwijderen?"
            message={`De bestelling van ${removing.request.name} wordt niet verstuurd en van deze telefoon gewist.`}
            confirmText="Verwijderen"
            cancelText="Bewaren"
            busyLabel="Bezig met verwijderen"
            destructive
            onConfirm={() => remove(removing.key)}
          />
        </React.Suspense>
      )}
    </section>
  );
}
