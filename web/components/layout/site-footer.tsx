import MapPinIcon from "lucide-react/icons/map-pin";
import type * as React from "react";

import { ExternalLinkText } from "@/components/external-link-text";
import { CONTENT_COLUMN } from "@/components/layout/content-column";
import { linkLabel, socialLabel, useSiteIdentity } from "@/lib/site";
import { cn } from "@/lib/utils";

// docs/product.md §2 "Layout": three columns (Contact, Volg ons, Praktisch), an address line with the town,
// the copyright with the current year, the VAT note and a 'Built with' credit line. A club without an e-mail,
// links or address yet shows none of them rather than the first club's (docs/decisions/073).
// Plain links: the layout also serves the prerendered pages, which run without the router; inside
// the SPA, web/lib/link-interception.ts turns them into router navigations.
export function SiteFooter() {
  const year = new Date().getFullYear();
  const site = useSiteIdentity();
  return (
    <footer data-slot="site-footer" className="mt-auto bg-footer text-footer-foreground">
      <div className={cn(CONTENT_COLUMN, "py-10")}>
        <div className="grid gap-8 sm:grid-cols-3">
          <FooterColumn title="Contact">
            <FooterLink to="/contact">Contactformulier</FooterLink>
            {site.email && (
              <li>
                <a href={`mailto:${site.email}`} className={`${footerLinkClass} break-all`}>
                  {site.email}
                </a>
              </li>
            )}
            <li className="text-footer-foreground/80">Vragen? Wij helpen je graag.</li>
          </FooterColumn>
          {(site.facebookUrl || site.ownSiteUrl) && (
            <FooterColumn title="Volg ons">
              {site.facebookUrl && <ExternalFooterLink href={site.facebookUrl}>{socialLabel(site.facebookUrl)}</ExternalFooterLink>}
              {site.ownSiteUrl && <ExternalFooterLink href={site.ownSiteUrl}>{linkLabel(site.ownSiteUrl)}</ExternalFooterLink>}
            </FooterColumn>
          )}
          <FooterColumn title="Praktisch">
            <FooterLink to="/faq">Veelgestelde vragen</FooterLink>
            <FooterLink to="/bestelinformatie">Bestelinformatie</FooterLink>
            <FooterLink to="/privacy">Privacy &amp; cookies</FooterLink>
          </FooterColumn>
        </div>
        <div className="mt-10 flex flex-col gap-2 border-t border-white/15 pt-6 text-sm text-footer-foreground/80 sm:flex-row sm:flex-wrap sm:items-center sm:justify-between">
          <address className="flex items-center gap-1.5 not-italic">
            <MapPinIcon aria-hidden="true" className="size-4 shrink-0" />
            {site.clubName}
            {site.addressLine && <> &middot; {site.addressLine}</>}
          </address>
          <p>Alle prijzen zijn exclusief btw.</p>
          <p>
            &copy; {year} {site.clubName}
          </p>
        </div>
        <p className="mt-4 text-xs text-footer-foreground/60">Built with React, Hono and Cloudflare</p>
      </div>
    </footer>
  );
}

function FooterColumn({ title, children }: { title: string; children: React.ReactNode }) {
  const headingId = `footer-${title.toLowerCase().replace(/\s+/g, "-")}`;
  return (
    <nav aria-labelledby={headingId}>
      <h2 id={headingId} className="mb-3 text-sm font-semibold tracking-wide text-white uppercase">
        {title}
      </h2>
      <ul className="flex flex-col gap-2 text-sm">{children}</ul>
    </nav>
  );
}

const footerLinkClass =
  "inline-flex items-center gap-1.5 rounded-sm underline-offset-4 outline-none hover:text-white hover:underline focus-visible:ring-2 focus-visible:ring-white/70";

// Inline, not flex: the icon then wraps with the text's last word (external-link-text.tsx).
const externalFooterLinkClass =
  "rounded-sm underline-offset-4 outline-none hover:text-white hover:underline focus-visible:ring-2 focus-visible:ring-white/70";

function FooterLink({ to, children }: { to: string; children: React.ReactNode }) {
  return (
    <li>
      <a href={to} className={footerLinkClass}>
        {children}
      </a>
    </li>
  );
}

function ExternalFooterLink({ href, children }: { href: string; children: string }) {
  return (
    <li>
      <a href={href} target="_blank" rel="noopener noreferrer" className={externalFooterLinkClass}>
        <ExternalLinkText text={children} />
        <span className="sr-only">(opent in een nieuw venster)</span>
      </a>
    </li>
  );
}
