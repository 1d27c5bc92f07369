import { useMutation, useQueryClient } from "@tanstack/react-query";
import * as React from "react";

import { errorFeedback, type Feedback, FormFeedback } from "@/components/form-feedback";
import { TextField } from "@/components/text-field";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { Label } from "@/components/ui/label";
import { Modal } from "@/components/ui/modal";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { useSnackbar } from "@/components/ui/snackbar";
import { Spinner } from "@/components/ui/spinner";
import { Switch } from "@/components/ui/switch";
import { Textarea } from "@/components/ui/textarea";
import { useErrorText, useMessages } from "@/i18n/use-messages";
import { useTrpc } from "@/lib/auth";
import { ChoiceSelect, settingChoices } from "./setting-value-editor";
import {
  DEFAULT_GROUP,
  type Setting,
  SETTING_TYPES,
  SETTING_VISIBILITIES,
  type SettingType,
  type SettingVisibility,
  valueAsText,
} from "./setting-utils";

// docs/product.md §2 "Settings Management" add/edit dialog ('Add Setting' / 'Edit Setting') with the rules of
// §5 "Setting form": key, value and type required; the key is read-only once the setting exists;
// min/max only for integers; group defaults to 'general'; 'deletable' only on create; a json value
// is sent as a string; a password needs its confirmation.

type FormState = {
  key: string;
  type: SettingType;
  value: string;
  confirmation: string;
  description: string;
  visibility: SettingVisibility;
  group: string;
  min: string;
  max: string;
  deletable: boolean;
};

function initialState(setting: Setting | null): FormState {
  if (!setting) {
    return {
      key: "",
      type: "string",
      value: "",
      confirmation: "",
      description: "",
      // A new setting is visible to admins only until chosen otherwise: it may hold a secret.
      visibility: "admin",
      group: DEFAULT_GROUP,
      min: "",
      max: "",
      deletable: true,
    };
  }
  return {
    key: setting.key,
    type: setting.type,
    value: valueAsText(setting),
    confirmation: "",
    description: setting.description,
    visibility: setting.visibility,
    group: setting.group_name || DEFAULT_GROUP,
    min: setting.min_value === null ? "" : String(setting.min_value),
    max: setting.max_value === null ? "" : String(setting.max_value),
    deletable: setting.deletable,
  };
}

/** The value a field keeps when the type changes. */
function valueForType(type: SettingType, previous: FormState): Pick<FormState, "value" | "confirmation"> {
  if (type === "boolean") return { value: previous.value === "true" ? "true" : "false", confirmation: "" };
  if (type === "password" || previous.type === "password") return { value: "", confirmation: "" };
  if (previous.type === "boolean") return { value: "", confirmation: "" };
  return { value: previous.value, confirmation: "" };
}

export type SettingFormDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The setting to edit; null to add one. */
  setting: Setting | null;
  /** Existing group names, offered as suggestions. */
  groupNames: readonly string[];
};

export function SettingFormDialog({ open, onOpenChange, setting, groupNames }: SettingFormDialogProps) {
  const trpc = useTrpc();
  const queryClient = useQueryClient();
  const { showSnackbar } = useSnackbar();
  const t = useMessages();
  const errorText = useErrorText();
  const add = useMutation(trpc.settings.add.mutationOptions());
  const edit = useMutation(trpc.settings.edit.mutationOptions());
  const editing = setting !== null;
  const pending = add.isPending || edit.isPending;

  const [form, setForm] = React.useState<FormState>(() => initialState(setting));
  const [feedback, setFeedback] = React.useState<Feedback | null>(null);
  const id = React.useId();
  const formId = `${id}-form`;

  const set = <K extends keyof FormState>(field: K, value: FormState[K]) => setForm((previous) => ({ ...previous, [field]: value }));

  // Editing a password setting: its value is never sent to the browser, so empty keeps it.
  const keepsPassword = editing && setting.type === "password" && form.type === "password" && form.value === "" && form.confirmation === "";
  const mismatch = form.type === "password" && form.confirmation !== "" && form.value !== form.confirmation;

  async function handleSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFeedback(null);
    const key = form.key.trim();
    const valueMissing = form.type === "boolean" ? false : form.value === "" && !keepsPassword;
    if (!key || !form.type || valueMissing) return setFeedback(errorFeedback(t.settings.form.requiredFields));
    if (form.type === "password" && form.value !== form.confirmation)
      return setFeedback(errorFeedback(t.settings.form.passwordsDoNotMatch));

    const integer = form.type === "integer";
    const input = {
      key,
      // docs/product.md §5: every value, json included, is sent as a string.
      value: form.type === "boolean" ? (form.value === "true" ? "true" : "false") : form.value,
      type: form.type,
      description: form.description.trim(),
      visibility: form.visibility,
      group_name: form.group.trim() || DEFAULT_GROUP,
      min_value: integer ? form.min.trim() || null : null,
      max_value: integer ? form.max.trim() || null : null,
    };
    try {
      if (editing) {
        await edit.mutateAsync(input);
        showSnackbar(t.settings.form.updated(key), "success");
      } else {
        await add.mutateAsync({ ...input, deletable: form.deletable });
        showSnackbar(t.settings.form.added(key), "success");
      }
      await queryClient.invalidateQueries({ queryKey: trpc.settings.list.queryKey() });
      onOpenChange(false);
    } catch (error) {
      setFeedback(errorFeedback(errorText(error, editing ? t.settings.form.editFailed : t.settings.form.addFailed)));
    }
  }

  return (
    <Modal
      closeLabel={t.common.close}
      open={open}
      onOpenChange={(next) => {
        if (!pending) onOpenChange(next);
      }}
      title={editing ? t.settings.form.editTitle : t.settings.form.addTitle}
      description={editing ? t.settings.form.editDescription : t.settings.form.addDescription}
      className="sm:max-w-xl"
      footer={
        <>
          <Button type="button" variant="outline" onClick={() => onOpenChange(false)} disabled={pending}>
            {t.common.cancel}
          </Button>
          <Button type="submit" form={formId} disabled={pending} aria-busy={pending || undefined}>
            {pending && <Spinner label={t.settings.form.saving} />}
            {editing ? t.common.save : t.common.add}
          </Button>
        </>
      }
    >
      <form
        id={formId}
        className="grid gap-4"
        onSubmit={handleSubmit}
        noValidate
        aria-label={editing ? t.settings.form.editTitle : t.settings.form.addTitle}
      >
        <FormFeedback feedback={feedback} />
        <TextField
          label={t.settings.form.key}
          name="key"
          value={form.key}
          onChange={(event) => set("key", event.target.value)}
          readOnly={editing}
          aria-readonly={editing || undefined}
          autoComplete="off"
          spellCheck={false}
          className="font-mono read-only:bg-muted"
          hint={editing ? undefined : t.settings.form.keyHint}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectField
            label={t.settings.form.type}
            value={form.type}
            options={SETTING_TYPES}
            onChange={(type) => setForm((previous) => ({ ...previous, type, ...valueForType(type, previous) }))}
          />
          <SelectField
            label={t.settings.form.visibility}
            value={form.visibility}
            options={SETTING_VISIBILITIES}
            onChange={(visibility) => set("visibility", visibility)}
          />
        </div>

        <ValueField
          id={`${id}-value`}
          form={form}
          editing={editing}
          mismatch={mismatch}
          onValue={(value) => set("value", value)}
          onConfirmation={(value) => set("confirmation", value)}
        />

        {form.type === "integer" && (
          <div className="grid grid-cols-2 gap-4">
            <TextField
              label={t.settings.form.minimum}
              name="min_value"
              type="number"
              inputMode="numeric"
              step={1}
              value={form.min}
              onChange={(event) => set("min", event.target.value)}
              hint={t.settings.form.minimumHint}
            />
            <TextField
              label={t.settings.form.maximum}
              name="max_value"
              type="number"
              inputMode="numeric"
              step={1}
              value={form.max}
              onChange={(event) => set("max", event.target.value)}
              hint={t.settings.form.maximumHint}
            />
          </div>
        )}

        <div className="grid gap-2">
          <Label htmlFor={`${id}-description`}>{t.common.description}</Label>
          <Textarea
            id={`${id}-description`}
            name="description"
            value={form.description}
            onChange={(event) => set("description", event.target.value)}
            maxLength={500}
          />
        </div>

        <TextField
          label={t.settings.form.group}
          name="group_name"
          value={form.group}
          onChange={(event) => set("group", event.target.value)}
          list={`${id}-groups`}
          autoComplete="off"
          hint={t.settings.form.groupHint(DEFAULT_GROUP)}
        />
        <datalist id={`${id}-groups`}>
          {groupNames.map((name) => (
            <option key={name} value={name} />
          ))}
        </datalist>

        {!editing && (
          <div className="flex items-start gap-3">
            <Checkbox
              id={`${id}-deletable`}
              checked={form.deletable}
              onCheckedChange={(checked) => set("deletable", checked === true)}
              className="mt-0.5"
            />
            <div className="grid gap-1">
              <Label htmlFor={`${id}-deletable`}>{t.settings.form.deletable}</Label>
              <p className="text-sm text-muted-foreground">{t.settings.form.deletableHint}</p>
            </div>
          </div>
        )}
      </form>
    </Modal>
  );
}

function SelectField<T extends string>({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: T;
  options: readonly T[];
  onChange: (value: T) => void;
}) {
  const id = React.useId();
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      <Select value={value} onValueChange={(next) => onChange(next as T)}>
        <SelectTrigger id={id} className="w-full">
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          {options.map((option) => (
            <SelectItem key={option} value={option}>
              {option}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </div>
  );
}

function ValueField({
  id,
  form,
  editing,
  mismatch,
  onValue,
  onConfirmation,
}: {
  id: string;
  form: FormState;
  editing: boolean;
  mismatch: boolean;
  onValue: (value: string) => void;
  onConfirmation: (value: string) => void;
}) {
  const t = useMessages();
  switch (form.type) {
    case "boolean": {
      const checked = form.value === "true";
      return (
        <div className="grid gap-2">
          <Label htmlFor={id}>{t.settings.form.value}</Label>
          <div className="flex items-center gap-3">
            <Switch id={id} checked={checked} onCheckedChange={(next) => onValue(next ? "true" : "false")} />
            <span className="text-sm" aria-hidden="true">
              {checked ? t.settings.form.booleanOn : t.settings.form.booleanOff}
            </span>
          </div>
        </div>
      );
    }
    case "integer":
      return (
        <TextField
          id={id}
          label={t.settings.form.value}
          name="value"
          type="number"
          inputMode="numeric"
          step={1}
          min={form.min.trim() === "" ? undefined : form.min}
          max={form.max.trim() === "" ? undefined : form.max}
          value={form.value}
          onChange={(event) => onValue(event.target.value)}
        />
      );
    case "json":
      return (
        <div className="grid gap-2">
          <Label htmlFor={id}>{t.settings.form.value}</Label>
          <Textarea
            id={id}
            name="value"
            value={form.value}
            onChange={(event) => onValue(event.target.value)}
            spellCheck={false}
            className="max-h-72 font-mono text-xs md:text-xs"
            aria-describedby={`${id}-hint`}
          />
          <p id={`${id}-hint`} className="text-sm text-muted-foreground">
            {t.settings.form.jsonHint}
          </p>
        </div>
      );
    case "password":
      return (
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            id={id}
            label={t.settings.form.value}
            name="value"
            type="password"
            autoComplete="new-password"
            value={form.value}
            onChange={(event) => onValue(event.target.value)}
            hint={editing ? t.settings.form.keepPasswordHint : undefined}
          />
          <TextField
            label={t.settings.form.confirmValue}
            name="confirm_value"
            type="password"
            autoComplete="new-password"
            value={form.confirmation}
            onChange={(event) => onConfirmation(event.target.value)}
            aria-invalid={mismatch || undefined}
            hint={mismatch ? <span className="text-destructive">{t.settings.form.passwordsDoNotMatch}</span> : undefined}
          />
        </div>
      );
    default: {
      // Issue 13: a setting with a fixed list of values (geocoder_provider) is chosen, not typed.
      const choices = settingChoices(form.key, form.type);
      if (choices) {
        return (
          <div className="grid gap-2">
            <Label htmlFor={id}>{t.settings.form.value}</Label>
            <ChoiceSelect id={id} choices={choices} value={form.value} onChange={onValue} />
          </div>
        );
      }
      return (
        <TextField
          id={id}
          label={t.settings.form.value}
          name="value"
          value={form.value}
          onChange={(event) => onValue(event.target.value)}
          autoComplete="off"
        />
      );
    }
  }
}
