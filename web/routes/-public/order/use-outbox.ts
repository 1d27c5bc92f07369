import * as React from "react";

import { type OrderRequest, type OutboxEntry, pageOutbox, type SendOutcome } from "@/lib/outbox";

// The order page's view of its outbox (web/lib/outbox.ts, docs/decisions/069): what waits, whether a send runs,
// and the three moments it sends — on opening the page (and on coming back to it), on the browser's `online`,
// and by the member's 'Verstuur nu'.

export type OutboxState = {
  /** Oldest first; empty until the outbox has been read (the prerendered page shows none). */
  entries: OutboxEntry[];
  sending: boolean;
  /** The last send emptied an outbox that had orders in it. */
  allSent: boolean;
  flush: () => Promise<void>;
  submit: (request: OrderRequest, tablerName: string) => Promise<SendOutcome>;
  remove: (key: string) => Promise<void>;
};

export function useOutbox(): OutboxState {
  const [entries, setEntries] = React.useState<OutboxEntry[]>([]);
  const [sending, setSending] = React.useState(false);
  const [allSent, setAllSent] = React.useState(false);

  const flush = React.useCallback(async () => {
    const outbox = await pageOutbox();
    const waiting = await outbox.list();
    setEntries(waiting);
    if (!waiting.some((entry) => !entry.refused)) return;
    setSending(true);
    try {
      await outbox.flush();
    } finally {
      setSending(false);
    }
    const left = await outbox.list();
    setEntries(left);
    setAllSent(left.length === 0);
  }, []);

  React.useEffect(() => {
    void flush();
    const onOnline = () => void flush();
    const onVisible = () => {
      if (document.visibilityState === "visible") void flush();
    };
    window.addEventListener("online", onOnline);
    document.addEventListener("visibilitychange", onVisible);
    return () => {
      window.removeEventListener("online", onOnline);
      document.removeEventListener("visibilitychange", onVisible);
    };
  }, [flush]);

  const submit = React.useCallback(async (request: OrderRequest, tablerName: string) => {
    const outbox = await pageOutbox();
    setAllSent(false);
    try {
      return await outbox.submit(request, tablerName);
    } finally {
      setEntries(await outbox.list());
    }
  }, []);

  const remove = React.useCallback(async (key: string) => {
    const outbox = await pageOutbox();
    await outbox.remove(key);
    setEntries(await outbox.list());
  }, []);

  return { entries, sending, allSent, flush, submit, remove };
}
