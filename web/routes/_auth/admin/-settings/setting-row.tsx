import { useStore } from "@tanstack/react-form";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import CircleAlertIcon from "lucide-react/icons/circle-alert";
import CircleCheckIcon from "lucide-react/icons/circle-check";
import PencilIcon from "lucide-react/icons/pencil";
import PencilLineIcon from "lucide-react/icons/pencil-line";
import SaveIcon from "lucide-react/icons/save";
import Trash2Icon from "lucide-react/icons/trash-2";
import * as React from "react";

import { Button } from "@/components/ui/button";
import { useSnackbar } from "@/components/ui/snackbar";
import { Spinner } from "@/components/ui/spinner";
import { Tooltip, TooltipContent, TooltipTrigger } from "@/components/ui/tooltip";
import type { Messages } from "@/i18n/catalogue";
import { settingDescription } from "@/i18n/built-in-texts";
import { useErrorText, useLocale, useMessages } from "@/i18n/use-messages";
import { useTrpc } from "@/lib/auth";
import { submitForm, useAppForm } from "@/lib/form";
import { firstErrorText, problemText, schemaProblem } from "@/lib/form-errors";
import { cn } from "@/lib/utils";
import { settingUpdateSchema } from "#src/features/settings/settings.schemas";
import { SettingValueEditor } from "./setting-value-editor";
import { boundsText, integerOrZero, type RowState, type Setting, settingAnchor, valueAsText } from "./setting-utils";
import { VisibilityChip } from "./visibility-chip";

// docs/product.md §4 "Setting row": unedited, edited (yellow), saved (green), error (red). An edited row is
// saved with the save icon (or Enter). A password setting's new value must match its
// confirmation, otherwise the row is marked error and nothing is sent. The state is also spelled
// out in text (the status line) for people who cannot tell the colours apart.

// Light tints with a strong left edge; the palette has no warning token, so the three states use
// Tailwind's amber/green/red here, in this one place.
const ROW_STYLES: Record<RowState, string> = {
  unedited: "border-l-transparent",
  edited: "border-l-amber-400 bg-amber-50",
  saved: "border-l-green-600 bg-green-50",
  error: "border-l-red-600 bg-red-50",
};

const STATUS_STYLES: Record<RowState, string> = {
  unedited: "text-muted-foreground",
  edited: "text-amber-800",
  saved: "text-green-800",
  error: "text-red-700",
};

type Outcome = { state: "saved" } | { state: "error"; message: string };

export type SettingRowProps = {
  setting: Setting;
  /** docs/product.md §6: settings.delete, and only for deletable settings. */
  canDelete: boolean;
  onEdit: (setting: Setting) => void;
  onDelete: (setting: Setting) => void;
  /** The page's address names this setting (a link such as the maintenance strip's). */
  targeted: boolean;
};

export function SettingRow({ setting, canDelete, onEdit, onDelete, targeted }: SettingRowProps) {
  const trpc = useTrpc();
  const queryClient = useQueryClient();
  const { showSnackbar } = useSnackbar();
  const t = useMessages();
  const locale = useLocale();
  const errorText = useErrorText();
  const update = useMutation(trpc.settings.update.mutationOptions());

  const baseline = valueAsText(setting);
  const [outcome, setOutcome] = React.useState<Outcome | null>(null);
  const isPassword = setting.type === "password";

  /** A refusal, by the server or by its schema here: the red row says why, the snackbar that saving failed. */
  function refused(message: string) {
    setOutcome({ state: "error", message });
    showSnackbar(t.settings.row.saveFailed(setting.key), "error");
  }

  // The row's value follows the stored one until it is edited (and again once it is saved).
  const form = useAppForm({
    defaultValues: { value: baseline, confirm_value: "" },
    validators: {
      onSubmit: ({ value }) => (isPassword && value.value !== value.confirm_value ? t.settings.form.passwordsDoNotMatch : undefined),
    },
    onSubmitInvalid: ({ formApi }) => setOutcome({ state: "error", message: firstErrorText(formApi.state.errors, locale) ?? "" }),
    onSubmit: async ({ value, formApi }) => {
      const input = { key: setting.key, value: setting.type === "integer" ? integerOrZero(value.value) : value.value };
      if (setting.type === "integer") formApi.setFieldValue("value", input.value);
      const problem = schemaProblem(settingUpdateSchema, input);
      if (problem !== undefined) return refused(problemText(problem, locale));
      try {
        const result = await update.mutateAsync(input);
        // Show the stored value at once; the refetch below confirms it.
        queryClient.setQueryData(trpc.settings.list.queryKey(), (old) =>
          old ? { ...old, settings: old.settings.map((s) => (s.key === setting.key ? result.setting : s)) } : old,
        );
        formApi.reset({ value: valueAsText(result.setting), confirm_value: "" });
        setOutcome({ state: "saved" });
        showSnackbar(t.settings.row.saved(setting.key), "success");
        void queryClient.invalidateQueries({ queryKey: trpc.settings.list.queryKey() });
      } catch (error) {
        // docs/product.md §8: the red row says why (the server's text, or 'Failed to update setting value'); the
        // snackbar carries the screen's own 'Failed to save setting'.
        refused(errorText(error, t.settings.row.updateFailed));
      }
    },
  });
  const { value, confirm_value: confirmation } = useStore(form.store, (state) => state.values);
  const pending = useStore(form.store, (state) => state.isSubmitting);

  const dirty = isPassword ? value !== "" || confirmation !== "" : value !== baseline;
  const state: RowState = outcome?.state === "error" ? "error" : dirty ? "edited" : outcome?.state === "saved" ? "saved" : "unedited";

  const id = React.useId();
  const keyId = `${id}-key`;
  const statusId = `${id}-status`;

  // A link to one setting lands on its row, in the middle of the screen, and puts the focus there, so the
  // keyboard and screen readers start from it too.
  const rowRef = React.useRef<HTMLLIElement>(null);
  React.useEffect(() => {
    if (!targeted) return;
    rowRef.current?.scrollIntoView({ block: "center" });
    rowRef.current?.focus({ preventScroll: true });
  }, [targeted]);

  function change(field: "value" | "confirm_value", next: string) {
    form.setFieldValue(field, next);
    setOutcome(null);
  }

  /** docs/product.md §5: an integer that does not parse falls back to 0 once the field is left. */
  function normalise() {
    if (setting.type === "integer" && form.getFieldMeta("value")?.isTouched) form.setFieldValue("value", integerOrZero(value));
  }

  function save() {
    if (dirty) submitForm(form);
  }

  const status = statusText(t, state, outcome, setting);
  const StatusIcon = state === "error" ? CircleAlertIcon : state === "saved" ? CircleCheckIcon : state === "edited" ? PencilLineIcon : null;

  return (
    <li
      ref={rowRef}
      id={settingAnchor(setting.key)}
      tabIndex={targeted ? -1 : undefined}
      data-slot="setting-row"
      data-setting-key={setting.key}
      data-state={state}
      aria-labelledby={keyId}
      className={cn(
        "grid grid-cols-[minmax(0,1fr)_auto] gap-x-3 gap-y-3 border-l-4 px-4 py-4 transition-colors sm:px-6 md:grid-cols-[minmax(0,15rem)_minmax(0,1fr)_auto] md:gap-x-6",
        // The sticky top bar must not cover a row the router scrolls to by its id.
        "scroll-mt-24 outline-none focus:ring-[3px] focus:ring-ring/50 focus:ring-inset",
        ROW_STYLES[state],
      )}
    >
      <div className="col-start-1 row-start-1 flex min-w-0 flex-col gap-1.5">
        <div className="flex flex-wrap items-center gap-2">
          <span id={keyId} className="font-mono text-sm font-semibold break-all">
            {setting.key}
          </span>
          <VisibilityChip visibility={setting.visibility} />
        </div>
        {setting.description && (
          <p className="text-sm text-muted-foreground">{settingDescription(setting.key, setting.description, locale)}</p>
        )}
        <p className="text-xs text-muted-foreground">{t.settings.row.type(setting.type)}</p>
      </div>

      <div className="col-span-2 row-start-2 flex min-w-0 flex-col gap-1.5 md:col-span-1 md:col-start-2 md:row-start-1">
        <SettingValueEditor
          setting={setting}
          value={value}
          confirmation={confirmation}
          onChange={(next) => change("value", next)}
          onConfirmationChange={(next) => change("confirm_value", next)}
          onBlur={normalise}
          onSubmit={save}
          disabled={pending}
          invalid={state === "error"}
          describedBy={statusId}
        />
        <p
          id={statusId}
          data-slot="setting-status"
          aria-live="polite"
          // Kept mounted (a live region), but takes no room while there is nothing to say.
          className={cn("flex items-start gap-1.5 text-xs font-medium", STATUS_STYLES[state], !status && "sr-only")}
        >
          {StatusIcon && <StatusIcon aria-hidden="true" className="mt-px size-3.5 shrink-0" />}
          <span>{status}</span>
        </p>
      </div>

      <div className="col-start-2 row-start-1 flex items-start justify-end gap-1 md:col-start-3">
        <IconAction tooltip={t.common.save}>
          <Button
            size="icon"
            variant={dirty ? "default" : "ghost"}
            onClick={save}
            disabled={!dirty || pending}
            aria-label={t.settings.row.saveLabel(setting.key)}
            aria-busy={pending || undefined}
            data-action="save"
          >
            {pending ? <Spinner label={t.settings.row.saving} /> : <SaveIcon aria-hidden="true" />}
          </Button>
        </IconAction>
        <IconAction tooltip={t.common.edit}>
          <Button
            size="icon"
            variant="ghost"
            onClick={() => onEdit(setting)}
            aria-label={t.settings.row.editLabel(setting.key)}
            data-action="edit"
          >
            <PencilIcon aria-hidden="true" />
          </Button>
        </IconAction>
        {canDelete && setting.deletable && (
          <IconAction tooltip={t.common.delete}>
            <Button
              size="icon"
              variant="ghost"
              className="text-destructive hover:bg-destructive/10 hover:text-destructive"
              onClick={() => onDelete(setting)}
              aria-label={t.settings.row.deleteLabel(setting.key)}
              data-action="delete"
            >
              <Trash2Icon aria-hidden="true" />
            </Button>
          </IconAction>
        )}
      </div>
    </li>
  );
}

function statusText(t: Messages, state: RowState, outcome: Outcome | null, setting: Setting): string {
  switch (state) {
    case "error":
      return outcome?.state === "error" ? outcome.message : "";
    case "edited":
      return t.settings.row.statusEdited;
    case "saved":
      return t.settings.row.statusSaved;
    default:
      if (setting.type === "password") return t.settings.row.keepPassword;
      if (setting.type === "integer") return boundsText(t, setting.min_value, setting.max_value) ?? "";
      return "";
  }
}

function IconAction({ tooltip, children }: { tooltip: string; children: React.ReactElement }) {
  return (
    <Tooltip>
      <TooltipTrigger asChild>{children}</TooltipTrigger>
      <TooltipContent>{tooltip}</TooltipContent>
    </Tooltip>
  );
}
