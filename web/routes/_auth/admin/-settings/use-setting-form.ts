import { useMutation, useQueryClient } from "@tanstack/react-query";
import * as React from "react";

import { useSnackbar } from "@/components/ui/snackbar";
import { useMessages } from "@/i18n/use-messages";
import { useTrpc } from "@/lib/auth";
import { useAppForm, useFormFeedback } from "@/lib/form";
import { schemaProblem } from "@/lib/form-errors";
import { settingInputSchema } from "#src/features/settings/settings.schemas";
import type { Setting } from "./setting-utils";
import { initialValues, settingInput } from "./setting-form-values";

/**
 * The add/edit setting form: the checks of docs/product.md §5 "Setting form", then the server's schema for the call;
 * on success a snackbar, the list read anew, and `onSaved`. `setting` null adds one.
 */
export function useSettingForm(setting: Setting | null, onSaved: () => void) {
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
          onSaved();
          return null;
        },
        editing ? t.settings.form.editFailed : t.settings.form.addFailed,
      ),
  });
  return { form, feedback };
}
