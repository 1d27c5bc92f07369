import * as React from "react";

const subscribe = () => () => undefined;

/**
 * False while React hydrates a prerendered page (and in the prerender itself), true from the next
 * render on. Parts that depend on the visitor, such as the sign-in controls, wait for it so the
 * hydrated tree matches the HTML built without a visitor.
 */
export function useHydrated(): boolean {
  return React.useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
