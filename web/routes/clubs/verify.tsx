import { useMutation } from "@tanstack/react-query";
import { createFileRoute } from "@tanstack/react-router";
import * as React from "react";
import * as z from "zod";

import { errorFeedback, FormFeedback } from "@/components/form-feedback";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { useTrpc } from "@/lib/auth";
import { usePageMeta } from "@/lib/page-meta";
import { AuthCard } from "../-components/auth-card";
import { signupRefusalText } from "./-signup-texts";

// docs/decisions/071: the link of the sign-up mail. It sends its token once when the page opens; the club then
// exists, and its admin signs in on the club's own address, which the answer names.
export const Route = createFileRoute("/clubs/verify")({
  validateSearch: (search) => z.object({ token: z.string().max(200).optional().catch(undefined) }).parse(search),
  component: VerifyPage,
});

type Outcome = { state: "pending" } | { state: "ready"; url: string } | { state: "refused"; text: string };

const INVALID_LINK = "Deze bevestigingslink is ongeldig of verlopen. Meld je club opnieuw aan.";

function VerifyPage() {
  usePageMeta({ title: "Aanmelding bevestigen – Kerstactie", description: "Bevestig de aanmelding van je club.", noindex: true });
  const { token } = Route.useSearch();
  const trpc = useTrpc();
  const verify = useMutation(trpc.clubs.verify.mutationOptions());
  const [outcome, setOutcome] = React.useState<Outcome>(token ? { state: "pending" } : { state: "refused", text: INVALID_LINK });
  // The link works once: StrictMode's second effect must not send it again.
  const sent = React.useRef(false);

  const { mutateAsync } = verify;
  React.useEffect(() => {
    if (!token || sent.current) return;
    sent.current = true;
    mutateAsync({ token }).then(
      (answer) => setOutcome({ state: "ready", url: answer.url }),
      (error: unknown) => setOutcome({ state: "refused", text: signupRefusalText(error) }),
    );
  }, [token, mutateAsync]);

  return (
    <div lang="nl" className="contents">
      {outcome.state === "pending" ? (
        <AuthCard title="Aanmelding bevestigen">
          <p className="flex items-center gap-2 text-sm text-muted-foreground">
            <Spinner label="Bezig met bevestigen" /> Bezig met bevestigen…
          </p>
        </AuthCard>
      ) : outcome.state === "ready" ? (
        <AuthCard title="Je club staat klaar" description="Je e-mailadres is bevestigd en jullie kerstactie is aangemaakt.">
          <p className="text-sm">
            Log in op het adres van jullie club, met de gebruikersnaam en het wachtwoord die je bij de aanmelding koos:{" "}
            <span className="font-medium break-all">{outcome.url}</span>
          </p>
          <Button asChild size="lg" className="w-full">
            <a href={`${outcome.url}/login`}>Inloggen bij je club</a>
          </Button>
        </AuthCard>
      ) : (
        <AuthCard title="Aanmelding bevestigen">
          <FormFeedback focusOnShow feedback={errorFeedback(outcome.text)} />
          <Button asChild variant="outline" className="w-full">
            <a href="/aanmelden">Opnieuw aanmelden</a>
          </Button>
        </AuthCard>
      )}
    </div>
  );
}
