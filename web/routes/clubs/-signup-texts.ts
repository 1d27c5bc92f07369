import { translateRefusal } from "@/i18n/server-errors";
import { serverRefusal } from "@/lib/errors";

/**
 * What /aanmelden and its link show for a refusal: a closed sign-up in its own friendly words, a field that fails
 * the server's schema in Dutch by its code (the schema's texts are the REST contract's English), any other refusal
 * as the server wrote it (the sign-up's own texts are Dutch), and a failure without an answer as a plain Dutch line.
 */
export function signupRefusalText(error: unknown): string {
  const refusal = serverRefusal(error);
  if (refusal === null) return "Er ging iets mis. Controleer je verbinding en probeer het opnieuw.";
  if (refusal.code === "CLUB_SIGNUP_CLOSED") return "Aanmelden is op dit moment niet mogelijk.";
  if (refusal.code === "INVALID_INPUT" || refusal.code?.startsWith("FIELD_")) return translateRefusal(refusal, "nl");
  return refusal.message;
}
