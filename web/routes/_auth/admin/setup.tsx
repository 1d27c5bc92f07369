import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { createFileRoute, useNavigate } from "@tanstack/react-router";
import * as React from "react";

import { errorFeedback, type Feedback, FormFeedback } from "@/components/form-feedback";
import { TextField } from "@/components/text-field";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Label } from "@/components/ui/label";
import { useSnackbar } from "@/components/ui/snackbar";
import { PageSpinner, Spinner } from "@/components/ui/spinner";
import { Textarea } from "@/components/ui/textarea";
import { useErrorText, useMessages } from "@/i18n/use-messages";
import { useTrpc } from "@/lib/auth";
import { type SettingsLookup, toSettingsLookup } from "@/lib/settings";
import { AdminPage } from "./-components/admin-page";
import { postponeSetup } from "./-setup/setup-state";

// docs/decisions/073: a new club's first sign-in opens this short set-up, so its first invoice can go out the same
// day: name, town, address and e-mail, bank and tax numbers, the package price and the first tablers. It saves through the settings
// and tablers calls the rest of the admin area uses, and ends by turning club_setup_pending off.
export const Route = createFileRoute("/_auth/admin/setup")({
  component: SetupPage,
});

/** The settings the set-up fills, in the order it saves them. */
const SETTING_KEYS = [
  "club_name",
  "club_town",
  "club_address",
  "club_email",
  "club_iban",
  "club_kvk_number",
  "club_vat_id",
  "package_price",
] as const;
type SettingKey = (typeof SETTING_KEYS)[number];
type Fields = Record<SettingKey, string> & { tablers: string };

/** The values a new club is seeded with for its bank and tax numbers are placeholders: the form starts empty there. */
const PLACEHOLDER = /^(NL00BANK0+|0+|NL0+B01)$/;

function initialFields(settings: SettingsLookup): Fields {
  const stored = (key: SettingKey) => {
    const value = settings[key];
    const text = value === null || value === undefined ? "" : String(value);
    return PLACEHOLDER.test(text) ? "" : text;
  };
  return {
    club_name: stored("club_name"),
    club_town: stored("club_town"),
    club_address: stored("club_address"),
    club_email: stored("club_email"),
    club_iban: stored("club_iban"),
    club_kvk_number: stored("club_kvk_number"),
    club_vat_id: stored("club_vat_id"),
    package_price: stored("package_price"),
    tablers: "",
  };
}

function SetupPage() {
  const trpc = useTrpc();
  const settings = useQuery(trpc.settings.list.queryOptions());
  if (settings.isPending) return <PageSpinner />;
  return <SetupForm initial={initialFields(toSettingsLookup(settings.data?.settings))} />;
}

function SetupForm({ initial }: { initial: Fields }) {
  const trpc = useTrpc();
  const t = useMessages();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { showSnackbar } = useSnackbar();
  const errorText = useErrorText();
  const updateSetting = useMutation(trpc.settings.update.mutationOptions());
  const createTabler = useMutation(trpc.tablers.create.mutationOptions());
  const [fields, setFields] = React.useState<Fields>(initial);
  const [errors, setErrors] = React.useState<Partial<Record<keyof Fields, string>>>({});
  const [feedback, setFeedback] = React.useState<Feedback | null>(null);
  const [saving, setSaving] = React.useState(false);
  const s = t.setup;
  const labels: Record<SettingKey, string> = {
    club_name: s.clubName,
    club_town: s.clubTown,
    club_address: s.clubAddress,
    club_email: s.clubEmail,
    club_iban: s.iban,
    club_kvk_number: s.kvk,
    club_vat_id: s.vatId,
    package_price: s.packagePrice,
  };

  const field = (name: SettingKey) => ({
    name,
    label: labels[name],
    value: fields[name],
    error: errors[name] ?? null,
    onChange: (event: React.ChangeEvent<HTMLInputElement>) => {
      setFields((previous) => ({ ...previous, [name]: event.target.value }));
      setErrors(({ [name]: _fixed, ...others }) => others);
    },
  });

  async function finish(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFeedback(null);
    const required: SettingKey[] = ["club_name", "club_town", "club_email", "package_price"];
    const found = Object.fromEntries(required.filter((key) => fields[key].trim() === "").map((key) => [key, s.required(labels[key])]));
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setSaving(true);
    // One call per value, as the settings page saves them; club_setup_pending goes off only after all of them, so a
    // refusal (an IBAN that fails its check) leaves the set-up open to correct and finish.
    let step: string = s.title;
    try {
      for (const key of SETTING_KEYS) {
        const value = fields[key].trim();
        if (value === "" || value === initial[key]) continue;
        step = labels[key];
        await updateSetting.mutateAsync({ key, value: key === "package_price" ? Number(value) : value });
      }
      const names = fields.tablers
        .split("\n")
        .map((name) => name.trim())
        .filter((name) => name !== "");
      if (names.length > 0) {
        step = s.tablers;
        // A second try after a refusal must not add the same tablers twice.
        const existing = new Set(
          (await queryClient.fetchQuery(trpc.tablers.list.queryOptions())).map((tabler) => tabler.name.toLowerCase()),
        );
        for (const name of names) {
          if (existing.has(name.toLowerCase())) continue;
          await createTabler.mutateAsync({ name });
          existing.add(name.toLowerCase());
        }
      }
      step = s.title;
      await updateSetting.mutateAsync({ key: "club_setup_pending", value: false });
      await queryClient.invalidateQueries({ queryKey: trpc.settings.list.queryKey() });
      await queryClient.invalidateQueries({ queryKey: trpc.tablers.list.queryKey() });
      showSnackbar(s.saved, "success");
      await navigate({ to: "/admin" });
    } catch (error) {
      setFeedback(errorFeedback(`${step}: ${errorText(error, s.failed)}`));
    } finally {
      setSaving(false);
    }
  }

  function later() {
    postponeSetup();
    void navigate({ to: "/admin" });
  }

  return (
    <AdminPage title={s.title} description={s.description} className="max-w-3xl">
      <form className="grid gap-6" noValidate aria-label={s.title} onSubmit={(event) => void finish(event)}>
        <FormFeedback feedback={feedback} focusOnShow />
        <Card>
          <CardHeader>
            <CardTitle>
              <h2 className="text-lg">{s.steps.club}</h2>
            </CardTitle>
          </CardHeader>
          <CardContent className="grid gap-4 sm:grid-cols-2">
            <TextField {...field("club_name")} required autoFocus maxLength={100} autoComplete="organization" />
            <TextField {...field("club_town")} required maxLength={100} autoComplete="address-level2" />
            <TextField {...field("club_address")} hint={s.clubAddressHint} maxLength={200} autoComplete="street-address" />
            <TextField {...field("club_email")} hint={s.clubEmailHint} required type="email" maxLength={254} autoComplete="email" />
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>
              <h2 className="text-lg">{s.steps.invoice}</h2>
            </CardTitle>
          </CardHeader>
          <CardContent className="grid gap-4 sm:grid-cols-2">
            <TextField {...field("club_iban")} hint={s.ibanHint} autoCapitalize="characters" spellCheck={false} autoComplete="off" />
            <TextField {...field("club_kvk_number")} inputMode="numeric" maxLength={8} autoComplete="off" />
            <TextField {...field("club_vat_id")} hint={s.vatIdHint} autoCapitalize="characters" spellCheck={false} autoComplete="off" />
            <TextField {...field("package_price")} required inputMode="numeric" autoComplete="off" />
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>
              <h2 className="text-lg">{s.steps.tablers}</h2>
            </CardTitle>
            <CardDescription id="setup-tablers-hint">{s.tablersHint}</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-2">
            <Label htmlFor="setup-tablers">{s.tablers}</Label>
            <Textarea
              id="setup-tablers"
              name="tablers"
              rows={4}
              aria-describedby="setup-tablers-hint"
              value={fields.tablers}
              onChange={(event) => setFields((previous) => ({ ...previous, tablers: event.target.value }))}
            />
          </CardContent>
        </Card>
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:items-center sm:justify-end">
          <p className="text-sm text-muted-foreground sm:mr-auto">{s.laterHint}</p>
          <Button type="button" variant="outline" onClick={later} disabled={saving}>
            {s.later}
          </Button>
          <Button type="submit" disabled={saving} aria-busy={saving || undefined}>
            {saving && <Spinner label={s.saving} />}
            {s.finish}
          </Button>
        </div>
      </form>
    </AdminPage>
  );
}
