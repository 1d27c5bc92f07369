import { usePageMeta } from "@/lib/page-meta";
import { formatEuro, useSiteIdentity } from "@/lib/site";
import { Island } from "../island";
import { pageMeta } from "../page-meta";
import { SellerOrder } from "../seller/seller-order";
import { OrderPageFrame } from "./order-page-frame";

// DESIGN §6 "The door": a seller's own order form, /bestellen/<seller_token>, opened from the seller's link or QR code.
// Prerendered once without a token; the server answers every /bestellen/<token> with it (docs/decisions/070).
export function SellerPage() {
  const site = useSiteIdentity();
  usePageMeta(pageMeta.sellerOrder(site));

  return (
    <OrderPageFrame
      intro={`Kerstpakketten van ${site.clubName}: € ${formatEuro(site.packagePrice)} per pakket, exclusief btw. De volledige winst gaat naar goede doelen in de regio.`}
      withoutJavaScript="Zet JavaScript aan in je browser om een bestelling door te geven, of stuur ons een bericht via"
    >
      <Island name="seller-order" component={SellerOrder} />
    </OrderPageFrame>
  );
}
