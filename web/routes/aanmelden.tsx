import { useMutation } from "@tanstack/react-query";
import { createFileRoute } from "@tanstack/react-router";
import * as React from "react";

import { errorFeedback, type Feedback } from "@/components/form-feedback";
import { TextField } from "@/components/text-field";
import { useTrpc } from "@/lib/auth";
import { usePageMeta } from "@/lib/page-meta";
import { CLUB_SLUG_PATTERN } from "#src/core/club-schemas";
import { AuthCard } from "./-components/auth-card";
import { AuthForm } from "./-components/auth-form";
import { signupRefusalText } from "./clubs/-signup-texts";

// docs/decisions/071: a club signs itself up here (Dutch, like the public site). Only the first club's host takes
// sign-ups, and only while its club_signup is on; the server says so (CLUB_SIGNUP_CLOSED) rather than this page,
// since a visitor cannot read that admin setting. Not prerendered: a form for a few visitors, kept out of search
// engines (docs/decisions/073).
export const Route = createFileRoute("/aanmelden")({
  component: SignUpPage,
});

const FIELDS = { club_name: "", slug: "", email: "", username: "", password: "" };
type Fields = typeof FIELDS;

/** The fields this page checks before sending, in Dutch; the server checks them all again. */
function missing(fields: Fields): Partial<Record<keyof Fields, string>> {
  const errors: Partial<Record<keyof Fields, string>> = {};
  if (fields.club_name.trim() === "") errors.club_name = "Vul de naam van je club in.";
  if (!CLUB_SLUG_PATTERN.test(fields.slug.trim())) errors.slug = "Gebruik 3 tot 40 tekens: kleine letters, cijfers en streepjes.";
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(fields.email.trim())) errors.email = "Vul een geldig e-mailadres in.";
  if (fields.username.trim().length < 3) errors.username = "Een gebruikersnaam heeft 3 tot 32 tekens: letters, cijfers, _ . -";
  if (fields.password === "") errors.password = "Kies een wachtwoord.";
  return errors;
}

function SignUpPage() {
  usePageMeta({ title: "Club aanmelden – Kerstactie", description: "Meld je club aan voor een eigen kerstactie.", noindex: true });
  const trpc = useTrpc();
  const signup = useMutation(trpc.clubs.signup.mutationOptions());
  const [fields, setFields] = React.useState<Fields>(FIELDS);
  const [errors, setErrors] = React.useState<Partial<Record<keyof Fields, string>>>({});
  const [feedback, setFeedback] = React.useState<Feedback | null>(null);
  const [sentTo, setSentTo] = React.useState<string | null>(null);

  const field = (name: keyof Fields) => ({
    name,
    value: fields[name],
    error: errors[name] ?? null,
    onChange: (event: React.ChangeEvent<HTMLInputElement>) => {
      setFields((previous) => ({ ...previous, [name]: event.target.value }));
      setErrors(({ [name]: _fixed, ...others }) => others);
    },
  });

  async function handleSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFeedback(null);
    const found = missing(fields);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    try {
      await signup.mutateAsync({ ...fields, slug: fields.slug.trim() });
      setSentTo(fields.email.trim());
    } catch (error) {
      setFeedback(errorFeedback(signupRefusalText(error)));
    }
  }

  if (sentTo !== null) {
    return (
      <div lang="nl" className="contents">
        <AuthCard title="Controleer je e-mail">
          <p role="status" className="text-sm">
            We hebben een bevestigingslink gestuurd naar <span className="font-medium break-all">{sentTo}</span>. Met die link (24 uur
            geldig) zet je jullie kerstactie klaar; daarna log je in op het adres van jullie club.
          </p>
        </AuthCard>
      </div>
    );
  }

  return (
    <div lang="nl" className="contents">
      <AuthCard
        title="Club aanmelden"
        description="Meld je club aan en draai jullie eigen kerstactie: bestellingen, facturen en betalingen, op een eigen adres."
      >
        <AuthForm
          label="Club aanmelden"
          feedback={feedback}
          onSubmit={(event) => void handleSubmit(event)}
          pending={signup.isPending}
          pendingLabel="Bezig met aanmelden"
          submitText="Club aanmelden"
        >
          <TextField label="Naam van de club" autoComplete="organization" required autoFocus {...field("club_name")} />
          <TextField
            label="Adres van de club"
            hint="Het eerste deel van het adres van jullie kerstactie (bijvoorbeeld rt99-sneek): 3 tot 40 tekens, kleine letters, cijfers en streepjes."
            autoCapitalize="none"
            spellCheck={false}
            required
            {...field("slug")}
          />
          <TextField label="E-mailadres" type="email" autoComplete="email" required {...field("email")} />
          <TextField
            label="Gebruikersnaam"
            hint="Hiermee log je straks in als beheerder van jullie club."
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            required
            {...field("username")}
          />
          <TextField label="Wachtwoord" type="password" autoComplete="new-password" required {...field("password")} />
        </AuthForm>
      </AuthCard>
    </div>
  );
}
