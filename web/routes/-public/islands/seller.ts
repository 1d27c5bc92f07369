import type { Islands } from "../island";
import { PublicAuthControls } from "../public-auth-controls";
import { SellerOrder } from "../seller/seller-order";

// What a seller's order form hydrates (island.tsx): the sign-in controls and the form for that seller.
export const islands: Islands = { "auth-controls": PublicAuthControls, "seller-order": SellerOrder };
