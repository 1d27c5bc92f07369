import type { Islands } from "../island";
import { OrderStatusView } from "../order-status/order-status-view";
import { PublicAuthControls } from "../public-auth-controls";

// What the customer's order page hydrates (island.tsx): the sign-in controls and the order itself.
export const islands: Islands = { "auth-controls": PublicAuthControls, "order-status": OrderStatusView };
