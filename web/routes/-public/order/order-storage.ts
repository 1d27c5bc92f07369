// spec §3 "Browser storage keys", §4 order flow: the tabler chosen in the password step is kept in
// browser storage and restored on load; 'Terug' and 'Nieuwe Bestelling' clear it.

export const TABLER_ID_KEY = "selectedTablerId";
export const TABLER_NAME_KEY = "selectedTablerName";

export type SelectedTabler = { id: number; name: string };

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
  return Number.isSafeInteger(id) && id > 0 && name ? { id, name } : null;
}

export function storeTabler(tabler: SelectedTabler): void {
  try {
    storage()?.setItem(TABLER_ID_KEY, String(tabler.id));
    storage()?.setItem(TABLER_NAME_KEY, tabler.name);
  } catch {
    // A full or blocked storage only costs the restore on reload.
  }
}

export function clearStoredTabler(): void {
  try {
    storage()?.removeItem(TABLER_ID_KEY);
    storage()?.removeItem(TABLER_NAME_KEY);
  } catch {
    // Nothing to clear.
  }
}
