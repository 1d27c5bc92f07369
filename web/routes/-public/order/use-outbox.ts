import * as React from "react";

import { type OrderRequest, type OutboxEntry, pageOutbox, retryDelayMs, type SendOutcome } from "@/lib/outbox";

// The order page's view of its outbox (web/lib/outbox.ts, docs/decisions/069): what waits, whether a send runs,
// and the moments it sends — on opening the page (and on coming back to it), on the browser's `online`, by the
// member's 'Verstuur nu', and by itself a while after a send that left orders waiting (retryDelayMs).

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

/** The same list as before (keys and reasons): the page is not rendered again for nothing, on every open above all. */
const unchanged = (before: OutboxEntry[], after: OutboxEntry[]) =>
  before.length === after.length &&
  before.every(
    (entry, index) => entry.key === after[index]?.key && entry.failure === after[index]?.failure && entry.refused === after[index]?.refused,
  );

export function useOutbox(): OutboxState {
  const [entries, setList] = React.useState<OutboxEntry[]>([]);
  const setEntries = React.useCallback((next: OutboxEntry[]) => setList((current) => (unchanged(current, next) ? current : next)), []);
  const [sending, setSending] = React.useState(false);
  const [allSent, setAllSent] = React.useState(false);
  // The next try of its own, and how many sends in a row left orders waiting.
  const retry = React.useRef<{ timer: ReturnType<typeof setTimeout> | null; failedTries: number; open: boolean }>({
    timer: null,
    failedTries: 0,
    open: false,
  });
  const flushRef = React.useRef<() => Promise<void>>(async () => undefined);
  /** After a send that left orders waiting: the next try of its own, unless one is set already or the page is gone. */
  const tryAgainLater = React.useCallback(() => {
    const next = retry.current;
    next.failedTries += 1;
    if (next.timer === null && next.open) next.timer = setTimeout(() => void flushRef.current(), retryDelayMs(next.failedTries));
  }, []);

  const flush = React.useCallback(async () => {
    const next = retry.current;
    if (next.timer !== null) clearTimeout(next.timer);
    next.timer = null;
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
    if (left.some((entry) => !entry.refused)) tryAgainLater();
    else next.failedTries = 0;
  }, [setEntries, tryAgainLater]);
  flushRef.current = flush;

  React.useEffect(() => {
    const next = retry.current;
    next.open = true;
    void flush();
    const onOnline = () => {
      retry.current.failedTries = 0;
      void flush();
    };
    const onVisible = () => {
      if (document.visibilityState === "visible") void flush();
    };
    window.addEventListener("online", onOnline);
    document.addEventListener("visibilitychange", onVisible);
    return () => {
      window.removeEventListener("online", onOnline);
      document.removeEventListener("visibilitychange", onVisible);
      next.open = false;
      if (next.timer !== null) clearTimeout(next.timer);
      next.timer = null;
    };
  }, [flush]);

  const submit = React.useCallback(
    async (request: OrderRequest, tablerName: string) => {
      const outbox = await pageOutbox();
      setAllSent(false);
      try {
        const outcome = await outbox.submit(request, tablerName);
        if (outcome.kind === "retry") tryAgainLater();
        return outcome;
      } finally {
        setEntries(await outbox.list());
      }
    },
    [setEntries, tryAgainLater],
  );

  const remove = React.useCallback(
    async (key: string) => {
      const outbox = await pageOutbox();
      await outbox.remove(key);
      setEntries(await outbox.list());
    },
    [setEntries],
  );

  return { entries, sending, allSent, flush, submit, remove };
}
