import type { Islands } from "../island";
import { PublicAuthControls } from "../public-auth-controls";

// What the FAQ, order information and privacy pages hydrate (island.tsx): the sign-in controls.
export const islands: Islands = { "auth-controls": PublicAuthControls };
