import { PageContainer } from "@/components/layout/site-layout";
import { usePageMeta } from "@/lib/page-meta";
import { useSiteIdentity } from "@/lib/site";
import { Island } from "../island";
import { NeedsJavaScript } from "../needs-javascript";
import { OrderFlow } from "../order/order-flow";
import { pageMeta } from "../page-meta";

// docs/product.md §2 "Order screen" ('Kerstpakket Bestellen'); the steps are ../order/order-flow.tsx.
// Router-free: prerendered like the info pages.
export function OrderPage() {
  const site = useSiteIdentity();
  usePageMeta(pageMeta.order(site));

  return (
    <div className="bg-linear-to-b from-accent to-background">
      <PageContainer className="flex max-w-2xl flex-col gap-6">
        <div className="flex flex-col gap-2">
          <h1 className="text-3xl font-extrabold tracking-tight sm:text-4xl">Kerstpakket Bestellen</h1>
          <p className="text-foreground/80">
            Kerstpakketten van {site.clubName}: € {site.packagePrice} per pakket, exclusief btw.
          </p>
        </div>
        <NeedsJavaScript>
          <p className="font-semibold">Het bestelformulier werkt alleen met JavaScript.</p>
          <p>
            Zet JavaScript aan in je browser om een bestelling door te geven. Je kunt ook bestellen via een van onze leden, of ons een
            bericht sturen via{" "}
            <a className="font-medium [overflow-wrap:anywhere] underline underline-offset-4" href={`mailto:${site.email}`}>
              {site.email}
            </a>
            .
          </p>
        </NeedsJavaScript>
        <Island name="order-flow" component={OrderFlow} />
      </PageContainer>
    </div>
  );
}
