import { useStore } from "@tanstack/react-form";

import { Label } from "@/components/ui/label";
import { Switch } from "@/components/ui/switch";
import { useMessages } from "@/i18n/use-messages";
import { withForm } from "@/lib/form";
import { initialValues } from "./setting-form-values";
import { ChoiceSelect, settingChoices } from "./setting-value-editor";

/** The value by type: a switch, a number, JSON text, a password and its confirmation, a choice or text. */
export const ValueField = withForm({
  defaultValues: initialValues(null),
  props: { id: "", editing: false },
  render: function ValueField({ form, id, editing }) {
    const t = useMessages();
    const values = useStore(form.store, (state) => state.values);
    switch (values.type) {
      case "boolean": {
        const checked = values.value === "true";
        return (
          <div className="grid gap-2">
            <Label htmlFor={id}>{t.settings.form.value}</Label>
            <div className="flex items-center gap-3">
              <Switch id={id} checked={checked} onCheckedChange={(next) => form.setFieldValue("value", next ? "true" : "false")} />
              <span className="text-sm" aria-hidden="true">
                {checked ? t.settings.form.booleanOn : t.settings.form.booleanOff}
              </span>
            </div>
          </div>
        );
      }
      case "integer":
        return (
          <form.AppField name="value">
            {(field) => (
              <field.TextField
                id={id}
                label={t.settings.form.value}
                type="number"
                inputMode="numeric"
                step={1}
                min={values.min_value.trim() === "" ? undefined : values.min_value}
                max={values.max_value.trim() === "" ? undefined : values.max_value}
              />
            )}
          </form.AppField>
        );
      case "json":
        return (
          <div className="grid gap-2">
            <Label htmlFor={id}>{t.settings.form.value}</Label>
            <form.AppField name="value">
              {(field) => (
                <field.Textarea
                  id={id}
                  name="value"
                  spellCheck={false}
                  className="max-h-72 font-mono text-xs md:text-xs"
                  aria-describedby={`${id}-hint`}
                />
              )}
            </form.AppField>
            <p id={`${id}-hint`} className="text-sm text-muted-foreground">
              {t.settings.form.jsonHint}
            </p>
          </div>
        );
      case "password": {
        const mismatch = values.confirm_value !== "" && values.value !== values.confirm_value;
        return (
          <div className="grid gap-4 sm:grid-cols-2">
            <form.AppField name="value">
              {(field) => (
                <field.TextField
                  id={id}
                  label={t.settings.form.value}
                  type="password"
                  autoComplete="new-password"
                  hint={editing ? t.settings.form.keepPasswordHint : undefined}
                />
              )}
            </form.AppField>
            <form.AppField name="confirm_value">
              {(field) => (
                <field.TextField
                  label={t.settings.form.confirmValue}
                  type="password"
                  autoComplete="new-password"
                  aria-invalid={mismatch || undefined}
                  hint={mismatch ? <span className="text-destructive">{t.settings.form.passwordsDoNotMatch}</span> : undefined}
                />
              )}
            </form.AppField>
          </div>
        );
      }
      default: {
        // docs/decisions/003: a setting with a fixed list of values (geocoder_provider) is chosen, not typed.
        const choices = settingChoices(values.key, values.type);
        if (choices) {
          return (
            <div className="grid gap-2">
              <Label htmlFor={id}>{t.settings.form.value}</Label>
              <ChoiceSelect id={id} choices={choices} value={values.value} onChange={(value) => form.setFieldValue("value", value)} />
            </div>
          );
        }
        return (
          <form.AppField name="value">
            {(field) => <field.TextField id={id} label={t.settings.form.value} autoComplete="off" />}
          </form.AppField>
        );
      }
    }
  },
});
