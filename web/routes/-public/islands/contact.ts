import { ContactForm } from "../contact-form";
import type { Islands } from "../island";
import { PublicAuthControls } from "../public-auth-controls";

// What the contact page hydrates (island.tsx): the sign-in controls and the form.
export const islands: Islands = { "auth-controls": PublicAuthControls, "contact-form": ContactForm };
