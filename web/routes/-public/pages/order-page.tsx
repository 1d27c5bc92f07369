import { usePageMeta } from "@/lib/page-meta";
import { useSiteIdentity } from "@/lib/site";
import { Island } from "../island";
import { OrderFlow } from "../order/order-flow";
import { pageMeta } from "../page-meta";
import { OrderPageFrame } from "./order-page-frame";

// docs/product.md §2 "Order screen" ('Kerstpakket Bestellen'); the steps are ../order/order-flow.tsx.
// Router-free: prerendered like the info pages.
export function OrderPage() {
  const site = useSiteIdentity();
  usePageMeta(pageMeta.order(site));

  return (
    <OrderPageFrame
      intro={`Kerstpakketten van ${site.clubName}: € ${site.packagePrice} per pakket, exclusief btw.`}
      withoutJavaScript="Zet JavaScript aan in je browser om een bestelling door te geven. Je kunt ook bestellen via een van onze leden, of ons een bericht sturen via"
    >
      <Island name="order-flow" component={OrderFlow} />
    </OrderPageFrame>
  );
}
