/// <reference lib="webworker" />
// The member app's service worker (docs/decisions/069), built by vite-plugin-pwa (injectManifest) with Workbox:
// registered by the order page only, with scope /order. It keeps what /order needs to open without a connection:
// the page's scripts, styles and icons (the precache list the build injects), the page itself and the settings
// it reads at start (both network first, from the cache when the network fails or is too slow). Orders do not
// pass through here: the page's outbox (web/lib/outbox.ts) sends them itself.
import { clientsClaim } from "workbox-core";
import { cleanupOutdatedCaches, type PrecacheEntry, precacheAndRoute } from "workbox-precaching";
import { warmStrategyCache } from "workbox-recipes";
import { registerRoute } from "workbox-routing";
import { NetworkFirst } from "workbox-strategies";

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (PrecacheEntry | string)[] };

const ORDER_PAGE = "/order";
/** The one request web/public-entry.tsx makes before it hydrates: the club's settings and the visitor's session. */
const START_DATA = "/trpc/settings.list,account.me?batch=1&input=%7B%7D";
/** After this long without an answer the cached copy is used (a phone in a stairwell has a connection that carries nothing). */
const NETWORK_TIMEOUT_SECONDS = 4;

// A new version takes over at once: the page and its files come from one build, and the outbox lives in IndexedDB,
// not in the worker, so nothing is lost when it changes.
self.skipWaiting();
clientsClaim();

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

// The page stays network first, as every page of the site is revalidated on each visit (docs/decisions/016);
// one cache entry whatever the query string. Both it and the start data are fetched at install too, so the
// first visit already leaves a copy (that visit's own requests came before the worker).
const orderPage = new NetworkFirst({
  cacheName: "order-page",
  networkTimeoutSeconds: NETWORK_TIMEOUT_SECONDS,
  plugins: [{ cacheKeyWillBeUsed: async () => new URL(ORDER_PAGE, self.location.origin).href }],
});
warmStrategyCache({ urls: [ORDER_PAGE], strategy: orderPage });
registerRoute(({ request, url }) => request.mode === "navigate" && url.pathname === ORDER_PAGE, orderPage);

// Offline the page still shows the club's name and price: the last answer is kept. tRPC answers `Vary: accept`, and
// the copy made at install was asked for by the worker, not the page: the one entry is used whatever the headers.
const startData = new NetworkFirst({
  cacheName: "order-start-data",
  networkTimeoutSeconds: NETWORK_TIMEOUT_SECONDS,
  matchOptions: { ignoreVary: true },
});
warmStrategyCache({ urls: [START_DATA], strategy: startData });
registerRoute(({ url }) => `${url.pathname}${url.search}` === START_DATA, startData);
