import { serverRefusal } from "@/lib/errors";

/**
 * What /aanmelden and its link show for a refusal: a closed sign-up in its own friendly words, any other refusal
 * as the server wrote it (the sign-up's texts are Dutch), and a failure without an answer as a plain Dutch line.
 */
export function signupRefusalText(error: unknown): string {
  const refusal = serverRefusal(error);
  if (refusal === null) return "Er ging iets mis. Controleer je verbinding en probeer het opnieuw.";
  if (refusal.code === "CLUB_SIGNUP_CLOSED") return "Aanmelden is op dit moment niet mogelijk.";
  return refusal.message;
}
