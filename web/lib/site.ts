import * as React from "react";

import type { SettingsLookup } from "@/lib/settings";

// The club's identity as the public pages show it. docs/architecture.md §3: club name, town, address, e-mail, the
// social and own-site links and the package price are public settings; these defaults are the first club's seed
// values, shown while the settings load. Once loaded, a club's empty address, e-mail or link is left out rather
// than replaced by the first club's (docs/decisions/073: a new club starts without them).

export type SiteIdentity = {
  clubName: string;
  town: string;
  /** The postal address line of the footer; the town when no address is set; null without either. */
  addressLine: string | null;
  email: string | null;
  facebookUrl: string | null;
  ownSiteUrl: string | null;
  /** Euro per package, excluding VAT (docs/product.md §9: 75). */
  packagePrice: number;
};

export const DEFAULT_SITE: SiteIdentity = {
  clubName: "Ronde Tafel 144 Harlingen",
  town: "Harlingen",
  addressLine: "Voorstraat 1, 8861 BJ Harlingen",
  email: "kerstactie@example.nl",
  facebookUrl: "https://www.facebook.com/",
  ownSiteUrl: "https://www.tafelronde.nl/",
  packagePrice: 75,
};

function text(lookup: SettingsLookup, key: string): string | null {
  const value = lookup[key];
  if (typeof value !== "string" && typeof value !== "number") return null;
  const trimmed = String(value).trim();
  return trimmed === "" ? null : trimmed;
}

/** Only http(s) links leave the site; anything else falls back to the default. */
function link(lookup: SettingsLookup, key: string): string | null {
  const value = text(lookup, key);
  return value && /^https?:\/\//i.test(value) ? value : null;
}

function price(lookup: SettingsLookup): number | null {
  const value = lookup.package_price;
  const number = typeof value === "number" ? value : typeof value === "string" ? Number(value) : Number.NaN;
  return Number.isFinite(number) && number > 0 ? number : null;
}

export function siteFromSettings(lookup: SettingsLookup): SiteIdentity {
  // An empty lookup is settings that did not load (yet): the page shows the seed values meanwhile.
  if (Object.keys(lookup).length === 0) return DEFAULT_SITE;
  const town = text(lookup, "club_town");
  return {
    clubName: text(lookup, "club_name") ?? DEFAULT_SITE.clubName,
    town: town ?? "",
    addressLine: text(lookup, "club_address") ?? town,
    email: text(lookup, "club_email"),
    facebookUrl: link(lookup, "club_facebook_url"),
    ownSiteUrl: link(lookup, "club_website_url"),
    packagePrice: price(lookup) ?? DEFAULT_SITE.packagePrice,
  };
}

const SiteIdentityContext = React.createContext<SiteIdentity>(DEFAULT_SITE);

/**
 * The club identity for the layout and the public pages. The SPA's root route provides it from the
 * settings query (useSettingsSiteIdentity); the prerendered pages' own entry (web/public-entry.tsx)
 * provides what it fetched. Pages stay free of the router and React Query that way.
 */
export const SiteIdentityProvider = SiteIdentityContext.Provider;

export function useSiteIdentity(): SiteIdentity {
  return React.useContext(SiteIdentityContext);
}

/** '75' or '75,50': euro amounts the Dutch way, without the currency sign. */
export function formatEuro(amount: number): string {
  return new Intl.NumberFormat("nl-NL", {
    minimumFractionDigits: Number.isInteger(amount) ? 0 : 2,
    maximumFractionDigits: 2,
    useGrouping: true,
  }).format(amount);
}

/** A link's host without 'www.', as a readable label ('tafelronde.nl'). */
export function linkLabel(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, "");
  } catch {
    return url;
  }
}

/** The name of a social network from its address, for the footer's 'Volg ons' link. */
export function socialLabel(url: string): string {
  const host = linkLabel(url).toLowerCase();
  for (const [needle, name] of [
    ["facebook.", "Facebook"],
    ["instagram.", "Instagram"],
    ["linkedin.", "LinkedIn"],
    ["x.com", "X"],
    ["twitter.", "X"],
  ] as const) {
    if (host.includes(needle)) return name;
  }
  return "Social media";
}
