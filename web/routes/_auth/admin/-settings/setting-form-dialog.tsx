import { useStore } from "@tanstack/react-form";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import * as React from "react";

import { FormFeedback } from "@/components/form-feedback";
import { Label } from "@/components/ui/label";
import { Modal } from "@/components/ui/modal";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { useSnackbar } from "@/components/ui/snackbar";
import { Switch } from "@/components/ui/switch";
import { useMessages } from "@/i18n/use-messages";
import { useTrpc } from "@/lib/auth";
import { useAppForm, useFormFeedback, withForm } from "@/lib/form";
import { schemaProblem } from "@/lib/form-errors";
import { settingInputSchema } from "../../../../../src/features/settings/settings.schemas";
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
// is sent as a string; a password needs its confirmation. What is sent is then checked with the server's
// schema for the call.

/** The form's fields, named as the inputs (and, where it has them, the call) name them. */
type SettingValues = {
  key: string;
  type: SettingType;
  value: string;
  confirm_value: string;
  description: string;
  visibility: SettingVisibility;
  group_name: string;
  min_value: string;
  max_value: string;
  deletable: boolean;
};

function initialValues(setting: Setting | null): SettingValues {
  if (!setting) {
    return {
      key: "",
      type: "string",
      value: "",
      confirm_value: "",
      description: "",
      // A new setting is visible to admins only until chosen otherwise: it may hold a secret.
      visibility: "admin",
      group_name: DEFAULT_GROUP,
      min_value: "",
      max_value: "",
      deletable: true,
    };
  }
  return {
    key: setting.key,
    type: setting.type,
    value: valueAsText(setting),
    confirm_value: "",
    description: setting.description,
    visibility: setting.visibility,
    group_name: setting.group_name || DEFAULT_GROUP,
    min_value: setting.min_value === null ? "" : String(setting.min_value),
    max_value: setting.max_value === null ? "" : String(setting.max_value),
    deletable: setting.deletable,
  };
}

/** The value a field keeps when the type changes. */
function valueForType(type: SettingType, previous: SettingValues): Pick<SettingValues, "value" | "confirm_value"> {
  if (type === "boolean") return { value: previous.value === "true" ? "true" : "false", confirm_value: "" };
  if (type === "password" || previous.type === "password") return { value: "", confirm_value: "" };
  if (previous.type === "boolean") return { value: "", confirm_value: "" };
  return { value: previous.value, confirm_value: "" };
}

/** What the add and edit calls are sent (docs/product.md §5: every value, json included, as a string). */
function settingInput(values: SettingValues, editing: boolean) {
  const integer = values.type === "integer";
  return {
    key: values.key.trim(),
    value: values.type === "boolean" ? (values.value === "true" ? "true" : "false") : values.value,
    type: values.type,
    description: values.description.trim(),
    visibility: values.visibility,
    group_name: values.group_name.trim() || DEFAULT_GROUP,
    min_value: integer ? values.min_value.trim() || null : null,
    max_value: integer ? values.max_value.trim() || null : null,
    ...(editing ? {} : { deletable: values.deletable }),
  };
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
  const add = useMutation(trpc.settings.add.mutationOptions());
  const edit = useMutation(trpc.settings.edit.mutationOptions());
  const editing = setting !== null;
  const { feedback, onSubmitInvalid, attempt } = useFormFeedback();
  // The setting as the dialog opened on it; a refetched list does not overwrite what is typed.
  const [defaultValues] = React.useState(() => initialValues(setting));
  const form = useAppForm({
    defaultValues,
    validators: {
      onSubmit: ({ value }) => {
        // Editing a password setting: its value is never sent to the browser, so empty keeps it.
        const keepsPassword =
          editing && setting.type === "password" && value.type === "password" && value.value === "" && value.confirm_value === "";
        const valueMissing = value.type === "boolean" ? false : value.value === "" && !keepsPassword;
        if (!value.key.trim() || !value.type || valueMissing) return t.settings.form.requiredFields;
        if (value.type === "password" && value.value !== value.confirm_value) return t.settings.form.passwordsDoNotMatch;
        return schemaProblem(settingInputSchema, settingInput(value, editing));
      },
    },
    onSubmitInvalid,
    onSubmit: ({ value }) =>
      attempt(
        async () => {
          const input = settingInput(value, editing);
          if (editing) {
            await edit.mutateAsync(input);
            showSnackbar(t.settings.form.updated(input.key), "success");
          } else {
            await add.mutateAsync(input);
            showSnackbar(t.settings.form.added(input.key), "success");
          }
          await queryClient.invalidateQueries({ queryKey: trpc.settings.list.queryKey() });
          onOpenChange(false);
          return null;
        },
        editing ? t.settings.form.editFailed : t.settings.form.addFailed,
      ),
  });
  const pending = useStore(form.store, (state) => state.isSubmitting);
  const type = useStore(form.store, (state) => state.values.type);
  const id = React.useId();
  const formId = `${id}-form`;

  return (
    <form.AppForm>
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
            <form.CancelButton onClick={() => onOpenChange(false)}>{t.common.cancel}</form.CancelButton>
            <form.SubmitButton form={formId} busyLabel={t.settings.form.saving}>
              {editing ? t.common.save : t.common.add}
            </form.SubmitButton>
          </>
        }
      >
        <form.Form
          id={formId}
          className="grid gap-4"
          noValidate
          aria-label={editing ? t.settings.form.editTitle : t.settings.form.addTitle}
        >
          <FormFeedback feedback={feedback} />
          <form.AppField name="key">
            {(field) => (
              <field.TextField
                label={t.settings.form.key}
                readOnly={editing}
                aria-readonly={editing || undefined}
                autoComplete="off"
                spellCheck={false}
                className="font-mono read-only:bg-muted"
                hint={editing ? undefined : t.settings.form.keyHint}
              />
            )}
          </form.AppField>
          <div className="grid gap-4 sm:grid-cols-2">
            <form.AppField name="type">
              {(field) => (
                <SelectField
                  label={t.settings.form.type}
                  value={field.state.value}
                  options={SETTING_TYPES}
                  onChange={(type) => {
                    const kept = valueForType(type, form.state.values);
                    field.handleChange(type);
                    form.setFieldValue("value", kept.value);
                    form.setFieldValue("confirm_value", kept.confirm_value);
                  }}
                />
              )}
            </form.AppField>
            <form.AppField name="visibility">
              {(field) => (
                <SelectField
                  label={t.settings.form.visibility}
                  value={field.state.value}
                  options={SETTING_VISIBILITIES}
                  onChange={field.handleChange}
                />
              )}
            </form.AppField>
          </div>

          <ValueField form={form} id={`${id}-value`} editing={editing} />

          {type === "integer" && (
            <div className="grid grid-cols-2 gap-4">
              <form.AppField name="min_value">
                {(field) => (
                  <field.TextField
                    label={t.settings.form.minimum}
                    type="number"
                    inputMode="numeric"
                    step={1}
                    hint={t.settings.form.minimumHint}
                  />
                )}
              </form.AppField>
              <form.AppField name="max_value">
                {(field) => (
                  <field.TextField
                    label={t.settings.form.maximum}
                    type="number"
                    inputMode="numeric"
                    step={1}
                    hint={t.settings.form.maximumHint}
                  />
                )}
              </form.AppField>
            </div>
          )}

          <div className="grid gap-2">
            <Label htmlFor={`${id}-description`}>{t.common.description}</Label>
            <form.AppField name="description">
              {(field) => <field.Textarea id={`${id}-description`} name="description" maxLength={500} />}
            </form.AppField>
          </div>

          <form.AppField name="group_name">
            {(field) => (
              <field.TextField
                label={t.settings.form.group}
                list={`${id}-groups`}
                autoComplete="off"
                hint={t.settings.form.groupHint(DEFAULT_GROUP)}
              />
            )}
          </form.AppField>
          <datalist id={`${id}-groups`}>
            {groupNames.map((name) => (
              <option key={name} value={name} />
            ))}
          </datalist>

          {!editing && (
            <div className="flex items-start gap-3">
              <form.AppField name="deletable">{(field) => <field.Checkbox id={`${id}-deletable`} className="mt-0.5" />}</form.AppField>
              <div className="grid gap-1">
                <Label htmlFor={`${id}-deletable`}>{t.settings.form.deletable}</Label>
                <p className="text-sm text-muted-foreground">{t.settings.form.deletableHint}</p>
              </div>
            </div>
          )}
        </form.Form>
      </Modal>
    </form.AppForm>
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

/** The value by type: a switch, a number, JSON text, a password and its confirmation, a choice or text. */
const ValueField = withForm({
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
