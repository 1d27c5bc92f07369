import InfoIcon from "lucide-react/icons/info";
import type * as React from "react";

/** Put on what cannot work without JavaScript; <NeedsJavaScript> hides it when scripts are off. */
export const NEEDS_JS = { "data-needs-js": "" } as const;

/**
 * The prerendered pages read without JavaScript, but their forms do not work without it: the order gate
 * asks the server, the order step uses browser storage, and both forms send JSON. A dead form would lose
 * what a visitor typed (and a plain submit would put it in the address bar), so when scripts are off the
 * forms marked with NEEDS_JS are hidden and this note says what to do instead. With scripts on, the
 * browser ignores <noscript> entirely.
 */
export function NeedsJavaScript({ children }: { children: React.ReactNode }) {
  return (
    <noscript>
      <style>{"[data-needs-js]{display:none!important}"}</style>
      <div
        role="note"
        data-slot="needs-javascript"
        className="flex items-start gap-3 rounded-xl border border-primary/30 bg-accent p-5 text-accent-foreground"
      >
        <InfoIcon aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
        <div className="flex flex-col gap-1.5 leading-relaxed">{children}</div>
      </div>
    </noscript>
  );
}
