import { PageContainer } from "@/components/layout/site-layout";
import { usePageMeta } from "@/lib/page-meta";
import { useSiteIdentity } from "@/lib/site";
import { Island } from "../island";
import { NeedsJavaScript } from "../needs-javascript";
import { OrderStatusView } from "../order-status/order-status-view";
import { pageMeta } from "../page-meta";

// docs/architecture.md §6 "The order page and online payment": the customer's own page, /bestelling/<token>, opened
// from a mail. Prerendered once without a token; the server answers every /bestelling/<token> with it (docs/decisions/067).
export function OrderStatusPage() {
  const site = useSiteIdentity();
  usePageMeta(pageMeta.orderStatus(site));

  return (
    <div className="bg-linear-to-b from-accent to-background">
      <PageContainer>
        {/* A narrow column on wide screens too: a few lines read better near the page's left edge. */}
        <div className="flex max-w-2xl flex-col gap-6">
          <NeedsJavaScript>
            <p className="font-semibold">Je bestelling bekijken kan alleen met JavaScript.</p>
            <p>
              Zet JavaScript aan in je browser om je bestelling te zien en te betalen. Vragen? Mail ons via{" "}
              <a className="font-medium [overflow-wrap:anywhere] underline underline-offset-4" href={`mailto:${site.email}`}>
                {site.email}
              </a>
              .
            </p>
          </NeedsJavaScript>
          <Island name="order-status" component={OrderStatusView} />
        </div>
      </PageContainer>
    </div>
  );
}
