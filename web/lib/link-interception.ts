// The layout and the public pages use plain <a href> links, because the prerendered pages run without
// the router (web/public-entry.tsx). Inside the SPA a click on such a link becomes a router navigation,
// as a <Link> would do, instead of loading the whole site again.

type Navigate = (href: string) => void;

/** The in-app address a click should navigate to, or null when the browser should handle it. */
export function interceptedHref(event: MouseEvent, location: Location): string | null {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return null;
  const target = event.target instanceof Element ? event.target.closest("a[href]") : null;
  if (!(target instanceof HTMLAnchorElement)) return null;
  if ((target.target && target.target !== "_self") || target.hasAttribute("download") || target.rel.split(/\s+/).includes("external"))
    return null;
  const url = new URL(target.href, location.href);
  if (url.origin !== location.origin) return null;
  // A jump within the page (#wie) is the browser's business.
  if (url.pathname === location.pathname && url.search === location.search && url.hash) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

export function installLinkInterception(navigate: Navigate, target: Document = document): () => void {
  const onClick = (event: MouseEvent) => {
    const href = interceptedHref(event, target.location);
    if (href === null) return;
    event.preventDefault();
    navigate(href);
  };
  target.addEventListener("click", onClick);
  return () => target.removeEventListener("click", onClick);
}
