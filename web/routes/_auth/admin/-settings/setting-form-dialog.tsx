import { useStore } from "@tanstack/react-form";
import * as React from "react";

import { FormFeedback } from "@/components/form-feedback";
import { Label } from "@/components/ui/label";
import { Modal } from "@/components/ui/modal";
import { useMessages } from "@/i18n/use-messages";
import { DeletableField, GroupField, IntegerBoundsFields, KindFields } from "./setting-form-fields";
import type { Setting } from "./setting-utils";
import { ValueField } from "./setting-value-field";
import { useSettingForm } from "./use-setting-form";

// docs/product.md §2 "Settings Management" add/edit dialog ('Add Setting' / 'Edit Setting') with the rules of
// §5 "Setting form": key, value and type required; the key is read-only once the setting exists;
// min/max only for integers; group defaults to 'general'; 'deletable' only on create; a json value
// is sent as a string; a password needs its confirmation. What is sent is then checked with the server's
// schema for the call.

export type SettingFormDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The setting to edit; null to add one. */
  setting: Setting | null;
  /** Existing group names, offered as suggestions. */
  groupNames: readonly string[];
};

export function SettingFormDialog({ open, onOpenChange, setting, groupNames }: SettingFormDialogProps) {
  const t = useMessages();
  const editing = setting !== null;
  const { form, feedback } = useSettingForm(setting, () => onOpenChange(false));
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
          <KindFields form={form} />
          <ValueField form={form} id={`${id}-value`} editing={editing} />
          {type === "integer" && <IntegerBoundsFields form={form} />}
          <div className="grid gap-2">
            <Label htmlFor={`${id}-description`}>{t.common.description}</Label>
            <form.AppField name="description">
              {(field) => <field.Textarea id={`${id}-description`} name="description" maxLength={500} />}
            </form.AppField>
          </div>
          <GroupField form={form} id={id} groupNames={groupNames} />
          {!editing && <DeletableField form={form} id={id} />}
        </form.Form>
      </Modal>
    </form.AppForm>
  );
}
