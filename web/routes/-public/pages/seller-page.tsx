import { PageContainer } from "@/components/layout/site-layout";
import { usePageMeta } from "@/lib/page-meta";
import { formatEuro, useSiteIdentity } from "@/lib/site";
import { Island } from "../island";
import { NeedsJavaScript } from "../needs-javascript";
import { pageMeta } from "../page-meta";
import { SellerOrder } from "../seller/seller-order";

// DESIGN §6 "The door": a seller's own order form, /bestellen/<seller_token>, opened from the seller's link or QR code.
// Prerendered once without a token; the server answers every /bestellen/<token> with it (docs/decisions/070).
export function SellerPage() {
  const site = useSiteIdentity();
  usePageMeta(pageMeta.sellerOrder(site));

  return (
    <div className="bg-linear-to-b from-accent to-background">
      <PageContainer className="flex max-w-2xl flex-col gap-6">
        <div className="flex flex-col gap-2">
          <h1 className="text-3xl font-extrabold tracking-tight sm:text-4xl">Kerstpakket Bestellen</h1>
          <p className="text-foreground/80">
            Kerstpakketten van {site.clubName}: € {formatEuro(site.packagePrice)} per pakket, exclusief btw. De volledige winst gaat naar
            goede doelen in de regio.
          </p>
        </div>
        <NeedsJavaScript>
          <p className="font-semibold">Het bestelformulier werkt alleen met JavaScript.</p>
          <p>
            Zet JavaScript aan in je browser om een bestelling door te geven, of stuur ons een bericht via{" "}
            <a className="font-medium [overflow-wrap:anywhere] underline underline-offset-4" href={`mailto:${site.email}`}>
              {site.email}
            </a>
            .
          </p>
        </NeedsJavaScript>
        <Island name="seller-order" component={SellerOrder} />
      </PageContainer>
    </div>
  );
}
