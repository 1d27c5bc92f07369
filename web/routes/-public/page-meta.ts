import type { PageMeta } from "@/lib/page-meta";
import { formatEuro, type SiteIdentity } from "@/lib/site";

// Titles and meta descriptions of the public pages, in one place so a prerender step can use them too.

const suffix = (site: SiteIdentity) => `Kerstactie ${site.clubName}`;

export const pageMeta = {
  home: (site: SiteIdentity): PageMeta => ({
    title: `Kerstactie ${site.clubName} – kerstpakketten voor het goede doel`,
    description: `Kerstpakketten van ${site.clubName} voor het goede doel: € ${formatEuro(site.packagePrice)} per pakket (excl. btw), met de hand ingepakt en bezorgd in ${site.town} en omstreken.`,
  }),
  faq: (site: SiteIdentity): PageMeta => ({
    title: `Veelgestelde Vragen | ${suffix(site)}`,
    description: `Antwoorden op de meestgestelde vragen over de kerstpakketten van ${site.clubName}: prijs, inhoud, bestellen, bezorging, betalen en de goede doelen.`,
  }),
  orderInfo: (site: SiteIdentity): PageMeta => ({
    title: `Bestelinformatie | ${suffix(site)}`,
    description: `Zo bestel je een kerstpakket bij ${site.clubName}: in vier stappen van eerste contact tot bezorging in ${site.town} en omstreken, met factuur per e-mail.`,
  }),
  privacy: (site: SiteIdentity): PageMeta => ({
    title: `Privacy & Cookies | ${suffix(site)}`,
    description: `Welke gegevens de kerstactie-website van ${site.clubName} bewaart, waarom, en welke cookies en browseropslag we gebruiken. Geen tracking.`,
  }),
  contact: (site: SiteIdentity): PageMeta => ({
    title: `Contact | ${suffix(site)}`,
    description: `Vragen over de kerstpakketten of een pakket bestellen? Stuur ${site.clubName} een bericht via het contactformulier.`,
  }),
  order: (site: SiteIdentity): PageMeta => ({
    title: `Kerstpakket Bestellen | ${suffix(site)}`,
    description: `Bestelformulier voor leden van ${site.clubName}: leg een bestelling voor kerstpakketten vast.`,
  }),
  // A customer's own page (docs/decisions/067): never in a search engine.
  orderStatus: (site: SiteIdentity): PageMeta => ({
    title: `Je bestelling | ${suffix(site)}`,
    description: `Je bestelling van kerstpakketten bij ${site.clubName}: de stand van zaken, de factuur en online betalen.`,
    noindex: true,
  }),
  // A seller's own order form (docs/decisions/070): handed out by the seller, not found through a search engine.
  sellerOrder: (site: SiteIdentity): PageMeta => ({
    title: `Kerstpakket Bestellen | ${suffix(site)}`,
    description: `Bestel kerstpakketten van ${site.clubName} via een van onze leden: € ${formatEuro(site.packagePrice)} per pakket (excl. btw).`,
    noindex: true,
  }),
};
