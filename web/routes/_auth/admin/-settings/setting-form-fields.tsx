import * as React from "react";

import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { useMessages } from "@/i18n/use-messages";
import { withForm } from "@/lib/form";
import { initialValues, valueForType } from "./setting-form-values";
import { DEFAULT_GROUP, SETTING_TYPES, SETTING_VISIBILITIES } from "./setting-utils";

// The fields of the add/edit setting dialog (setting-form-dialog.tsx) beyond the key, the value and the description.

/** The type and who sees the setting, side by side; a new type keeps of the value what still fits it. */
export const KindFields = withForm({
  defaultValues: initialValues(null),
  render: function KindFields({ form }) {
    const t = useMessages();
    return (
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
    );
  },
});

/** The lowest and highest value an integer setting takes. */
export const IntegerBoundsFields = withForm({
  defaultValues: initialValues(null),
  render: function IntegerBoundsFields({ form }) {
    const t = useMessages();
    const bounds = [
      { name: "min_value", label: t.settings.form.minimum, hint: t.settings.form.minimumHint },
      { name: "max_value", label: t.settings.form.maximum, hint: t.settings.form.maximumHint },
    ] as const;
    return (
      <div className="grid grid-cols-2 gap-4">
        {bounds.map(({ name, label, hint }) => (
          <form.AppField key={name} name={name}>
            {(field) => <field.TextField label={label} type="number" inputMode="numeric" step={1} hint={hint} />}
          </form.AppField>
        ))}
      </div>
    );
  },
});

/** The group the setting is listed under, with the existing ones offered. */
export const GroupField = withForm({
  defaultValues: initialValues(null),
  props: { id: "", groupNames: [] as readonly string[] },
  render: function GroupField({ form, id, groupNames }) {
    const t = useMessages();
    return (
      <>
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
      </>
    );
  },
});

/** Whether the setting may be deleted later: chosen when it is added, never after. */
export const DeletableField = withForm({
  defaultValues: initialValues(null),
  props: { id: "" },
  render: function DeletableField({ form, id }) {
    const t = useMessages();
    return (
      <div className="flex items-start gap-3">
        <form.AppField name="deletable">{(field) => <field.Checkbox id={`${id}-deletable`} className="mt-0.5" />}</form.AppField>
        <div className="grid gap-1">
          <Label htmlFor={`${id}-deletable`}>{t.settings.form.deletable}</Label>
          <p className="text-sm text-muted-foreground">{t.settings.form.deletableHint}</p>
        </div>
      </div>
    );
  },
});

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
