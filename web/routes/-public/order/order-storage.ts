import * as React from "react";

// docs/product.md §3 "Browser storage keys", §4 order flow: the tabler chosen in the password step is kept in
// browser storage and restored on load; 'Terug' and 'Nieuwe Bestelling' clear it. The gate token
// (docs/architecture.md §5) is kept beside it; storage from before the token simply has none (the plain limit).

export const TABLER_ID_KEY = "selectedTablerId";
export const TABLER_NAME_KEY = "selectedTablerName";
export const GATE_TOKEN_KEY = "gateToken";

export type SelectedTabler = { id: number; name: string; gateToken: string | null };

function storage(): Storage | null {
  try {
    return typeof window === "undefined" ? null : window.localStorage;
  } catch {
    // Storage can be switched off (privacy settings); the form then simply forgets on reload.
    return null;
  }
}

export function readStoredTabler(): SelectedTabler | null {
  const store = storage();
  if (!store) return null;
  const id = Number(store.getItem(TABLER_ID_KEY));
  const name = store.getItem(TABLER_NAME_KEY);
  return Number.isSafeInteger(id) && id > 0 && name ? { id, name, gateToken: store.getItem(GATE_TOKEN_KEY) } : null;
}

export function storeTabler(tabler: SelectedTabler): void {
  try {
    storage()?.setItem(TABLER_ID_KEY, String(tabler.id));
    storage()?.setItem(TABLER_NAME_KEY, tabler.name);
    if (tabler.gateToken) storage()?.setItem(GATE_TOKEN_KEY, tabler.gateToken);
    else storage()?.removeItem(GATE_TOKEN_KEY);
  } catch {
    // A full or blocked storage only costs the restore on reload.
  }
}

export function clearStoredTabler(): void {
  try {
    storage()?.removeItem(TABLER_ID_KEY);
    storage()?.removeItem(TABLER_NAME_KEY);
    storage()?.removeItem(GATE_TOKEN_KEY);
  } catch {
    // Nothing to clear.
  }
}

let cached: SelectedTabler | null = null;

/** The stored tabler as a stable value (the same object while it does not change). */
function storedSnapshot(): SelectedTabler | null {
  const tabler = readStoredTabler();
  if (!tabler) {
    cached = null;
  } else if (!cached || cached.id !== tabler.id || cached.name !== tabler.name || cached.gateToken !== tabler.gateToken) {
    cached = tabler;
  }
  return cached;
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener("storage", onChange);
  return () => window.removeEventListener("storage", onChange);
}

/**
 * The stored tabler, read during render. While a prerendered page hydrates it is null (the HTML was
 * built without storage); React renders again with the stored value right after.
 */
export function useStoredTabler(): SelectedTabler | null {
  return React.useSyncExternalStore(subscribe, storedSnapshot, () => null);
}
