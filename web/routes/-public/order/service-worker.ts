// The member app's service worker (web/order-sw.ts, docs/decisions/069) is registered from the order page's own code
// and scoped to /order: no other page loads it or is served by it.

export const ORDER_SW_URL = "/order-sw.js";
export const ORDER_APP_SCOPE = "/order";

export function registerOrderServiceWorker(): void {
  // The development server builds no service worker.
  if (!import.meta.env.PROD || !("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register(ORDER_SW_URL, { scope: ORDER_APP_SCOPE }).catch((error: unknown) => {
    // Without it the page still works online; only the offline start is missing.
    console.warn("The order app's service worker could not be registered", error);
  });
}
