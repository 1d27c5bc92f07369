import * as React from "react";

import type { SearchChange } from "./search";

const SEARCH_DEBOUNCE_MS = 300;

/**
 * The text of the orders' search box. It follows typing at once; the URL (and so the query) follows after a pause,
 * in place. `urlQ` is the search text the URL holds now.
 */
export function useSearchText(urlQ: string, onSearchChange: SearchChange): [string, (text: string) => void] {
  const [text, setText] = React.useState(urlQ);
  const sentQ = React.useRef<string | null>(null);
  React.useEffect(() => {
    // Back, Forward or a link changed the search text: show it. Our own change leaves the box alone,
    // so a space typed meanwhile is not taken away.
    if (urlQ === sentQ.current) return;
    sentQ.current = null;
    setText(urlQ);
  }, [urlQ]);
  React.useEffect(() => {
    const q = text.trim();
    if (q === urlQ) return;
    const timer = window.setTimeout(() => {
      sentQ.current = q;
      void onSearchChange({ q: q || undefined, page: undefined }, { replace: true });
    }, SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [text, urlQ, onSearchChange]);
  return [text, setText];
}
