import { CharityTiles } from "../charities";
import type { Islands } from "../island";
import { PublicAuthControls } from "../public-auth-controls";

// What the landing page hydrates (island.tsx): the sign-in controls and the charity tiles.
export const islands: Islands = { "auth-controls": PublicAuthControls, charities: CharityTiles };
