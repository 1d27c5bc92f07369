// The member app (docs/decisions/069) is installed by the order page's own code once its member has passed the gate:
// the manifest link and the service worker (web/order-sw.ts, scope /order). No other page loads either, and a
// first visit at the gate loads neither (Lighthouse counted the manifest's fetch against the page's first load).

const ORDER_SW_URL = "/order-sw.js";
const ORDER_APP_SCOPE = "/order";
const ORDER_MANIFEST_URL = "/order.webmanifest";

function registerServiceWorker(): void {
  navigator.serviceWorker.register(ORDER_SW_URL, { scope: ORDER_APP_SCOPE }).catch((error: unknown) => {
    // Without it the page still works online; only the offline start is missing.
    console.warn("The order app's service worker could not be registered", error);
  });
}

/** Makes the page the installable member app; the returned function takes the manifest link away again (the SPA leaving /order). */
export function installMemberApp(): () => void {
  let link = document.head.querySelector<HTMLLinkElement>(`link[rel="manifest"][href="${ORDER_MANIFEST_URL}"]`);
  const added = link === null;
  if (!link) {
    link = document.createElement("link");
    link.rel = "manifest";
    link.href = ORDER_MANIFEST_URL;
    document.head.append(link);
  }
  // The development server builds no service worker. After the page's own load: the worker's install fetches the
  // files it keeps, which should not compete with the page's.
  if (import.meta.env.PROD && "serviceWorker" in navigator) {
    if (document.readyState === "complete") registerServiceWorker();
    else window.addEventListener("load", registerServiceWorker, { once: true });
  }
  return () => {
    if (added) link.remove();
  };
}
