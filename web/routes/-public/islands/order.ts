import type { Islands } from "../island";
import { OrderFlow } from "../order/order-flow";
import { PublicAuthControls } from "../public-auth-controls";

// What the order page hydrates (island.tsx): the sign-in controls and the order steps.
export const islands: Islands = { "auth-controls": PublicAuthControls, "order-flow": OrderFlow };
