import * as React from "react";

import { errorFeedback, type Feedback, FormFeedback, successFeedback } from "@/components/form-feedback";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { catalogues, LOCALE_NAMES } from "@/i18n/catalogue";
import { useMessages } from "@/i18n/use-messages";
import { useSetLocale } from "@/lib/auth";
import { cn } from "@/lib/utils";
import { LOCALES, type Locale } from "#src/core/locales";

// docs/decisions/011: the back-office language, stored on the user. A choice applies at once: the cached user
// changes, so this page (and every admin screen) rerenders in the new language.
export function LanguageCard({ locale }: { locale: Locale }) {
  const setLocale = useSetLocale();
  const t = useMessages();
  const [feedback, setFeedback] = React.useState<Feedback | null>(null);

  async function choose(next: Locale) {
    setFeedback(null);
    try {
      await setLocale.mutateAsync({ locale: next });
      // Said in the language just chosen: the catalogue of `next`, not of this render.
      setFeedback(successFeedback(catalogues[next].language.saved));
    } catch {
      setFeedback(errorFeedback(t.language.failed));
    }
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2 className="text-lg" id="language-title">
            {t.language.title}
          </h2>
        </CardTitle>
        <CardDescription>{t.language.description}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <fieldset aria-labelledby="language-title" className="flex flex-wrap gap-2" disabled={setLocale.isPending}>
          {LOCALES.map((option) => (
            <label
              key={option}
              lang={option}
              className={cn(
                "inline-flex min-h-11 cursor-pointer items-center gap-2 rounded-md border px-4 text-sm font-medium has-[:focus-visible]:ring-[3px] has-[:focus-visible]:ring-ring/50",
                option === locale ? "border-primary bg-primary/10" : "border-input bg-background hover:bg-muted",
              )}
            >
              <input
                type="radio"
                name="locale"
                value={option}
                checked={option === locale}
                onChange={() => void choose(option)}
                className="size-4 accent-primary"
              />
              {LOCALE_NAMES[option]}
            </label>
          ))}
        </fieldset>
        <FormFeedback feedback={feedback} />
      </CardContent>
    </Card>
  );
}
