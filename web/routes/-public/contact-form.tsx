import LoaderCircleIcon from "lucide-react/icons/loader-circle";
import SendIcon from "lucide-react/icons/send";
import * as React from "react";

import { errorFeedback, type Feedback, FormFeedback, successFeedback } from "@/components/form-feedback";
import { FormField } from "@/components/form-field";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import { type ContactField, type ContactFormValues, type FieldErrors, firstErrorField, validateContact } from "@/lib/public-forms";
import { refusalText } from "@/lib/server-refusal";
import { useMutate } from "@/lib/trpc-fetch";
import { useHydrated } from "@/lib/use-hydrated";
import { CONTACT_LABELS, CONTACT_MAX_LENGTHS } from "#src/core/public-form-rules";
import { NEEDS_JS } from "./needs-javascript";

// docs/product.md §5 contact (all four fields required); §8 contact messages. The form posts with
// web/lib/trpc-fetch.ts: the prerendered page runs without the tRPC client. An island of the contact
// page (island.tsx).
const SUCCESS = "Je bericht is succesvol verzonden! Wij nemen zo snel mogelijk contact met je op.";
const FAILURE = "Er is een fout opgetreden bij het versturen van je bericht. Probeer het opnieuw.";

const EMPTY: ContactFormValues = { name: "", email: "", subject: "", message: "" };
const FIELD_ORDER: readonly ContactField[] = ["name", "email", "subject", "message"];

export function ContactForm() {
  const send = useMutate("contact.send");
  // The prerendered form shows before its script runs; until then a submit would reload the page and
  // lose what was typed, so the button waits for hydration.
  const hydrated = useHydrated();
  const formId = React.useId();
  const [values, setValues] = React.useState<ContactFormValues>(EMPTY);
  const [errors, setErrors] = React.useState<FieldErrors<ContactField>>({});
  const [feedback, setFeedback] = React.useState<Feedback | null>(null);
  // The honeypot: hidden from people, filled in by bots (the server then keeps nothing).
  const [website, setWebsite] = React.useState("");
  const formRef = React.useRef<HTMLFormElement>(null);

  function update(field: ContactField, value: string) {
    setValues((current) => ({ ...current, [field]: value }));
    if (errors[field]) setErrors((current) => ({ ...current, [field]: undefined }));
  }

  async function handleSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (send.isPending) return;
    setFeedback(null);
    const found = validateContact(values);
    setErrors(found);
    const first = firstErrorField(found, FIELD_ORDER);
    if (first) {
      formRef.current?.querySelector<HTMLElement>(`#${CSS.escape(`${formId}-${first}`)}`)?.focus();
      return;
    }
    try {
      await send.mutateAsync({
        name: values.name.trim(),
        email: values.email.trim(),
        subject: values.subject.trim(),
        message: values.message.trim(),
        website,
      });
      setValues(EMPTY);
      setFeedback(successFeedback(SUCCESS));
    } catch (error) {
      setFeedback(errorFeedback(refusalText(error, FAILURE)));
    }
  }

  const fieldId = (field: ContactField) => `${formId}-${field}`;

  return (
    <form
      {...NEEDS_JS}
      ref={formRef}
      noValidate
      onSubmit={handleSubmit}
      aria-labelledby={`${formId}-title`}
      className="flex flex-col gap-5 rounded-xl border bg-card p-5 shadow-sm sm:p-8"
    >
      <h2 id={`${formId}-title`} className="text-xl font-bold tracking-tight">
        Stuur ons een bericht
      </h2>
      <FormFeedback feedback={feedback} focusOnShow />
      <div className="grid gap-5 sm:grid-cols-2">
        <FormField id={fieldId("name")} label={CONTACT_LABELS.name} required error={errors.name}>
          {(control) => (
            <Input {...control} name="name" autoComplete="name" value={values.name} onChange={(e) => update("name", e.target.value)} />
          )}
        </FormField>
        <FormField id={fieldId("email")} label={CONTACT_LABELS.email} required error={errors.email}>
          {(control) => (
            <Input
              {...control}
              name="email"
              type="email"
              autoComplete="email"
              inputMode="email"
              value={values.email}
              onChange={(e) => update("email", e.target.value)}
            />
          )}
        </FormField>
      </div>
      <FormField id={fieldId("subject")} label={CONTACT_LABELS.subject} required error={errors.subject}>
        {(control) => (
          <Input
            {...control}
            name="subject"
            maxLength={CONTACT_MAX_LENGTHS.subject}
            value={values.subject}
            onChange={(e) => update("subject", e.target.value)}
          />
        )}
      </FormField>
      <FormField id={fieldId("message")} label={CONTACT_LABELS.message} required error={errors.message}>
        {(control) => (
          <Textarea
            {...control}
            name="message"
            rows={6}
            maxLength={CONTACT_MAX_LENGTHS.message}
            className="min-h-36"
            value={values.message}
            onChange={(e) => update("message", e.target.value)}
          />
        )}
      </FormField>
      <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
        <label htmlFor={`${formId}-website`}>Laat dit veld leeg</label>
        <input
          id={`${formId}-website`}
          name="website"
          type="text"
          tabIndex={-1}
          autoComplete="off"
          value={website}
          onChange={(e) => setWebsite(e.target.value)}
        />
      </div>
      <Button type="submit" size="lg" className="self-start" disabled={!hydrated || send.isPending} aria-busy={send.isPending || undefined}>
        {send.isPending ? <LoaderCircleIcon aria-hidden="true" className="animate-spin" /> : <SendIcon aria-hidden="true" />}
        Versturen
      </Button>
    </form>
  );
}
