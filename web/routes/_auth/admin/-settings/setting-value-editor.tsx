import { useQuery } from "@tanstack/react-query";
import type * as React from "react";

import { Input } from "@/components/ui/input";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { Switch } from "@/components/ui/switch";
import { Textarea } from "@/components/ui/textarea";
import { useMessages } from "@/i18n/use-messages";
import { useTrpc } from "@/lib/auth";
import { cn } from "@/lib/utils";
import { SETTING_CHOICES } from "#src/features/settings/setting-rules";
import { DEFAULT_USER_GROUP_KEY, type Setting } from "./setting-utils";

// The inline value editor of a setting row, by type (docs/product.md §5 "Setting form"): boolean → switch,
// integer → number input bounded by min/max, string → text, json → textarea, password → password
// plus confirmation. default_user_group_id is chosen from the groups (docs/product.md §3); a setting with a fixed
// list of values (docs/decisions/003: geocoder_provider) from that list, the one the server checks on save.

/** The values a string setting may take, or undefined when it is free text. */
export function settingChoices(key: string, type: string): readonly string[] | undefined {
  return type === "string" ? SETTING_CHOICES[key.trim()] : undefined;
}

export type SettingValueEditorProps = {
  setting: Setting;
  value: string;
  confirmation: string;
  onChange: (value: string) => void;
  onConfirmationChange: (value: string) => void;
  onBlur: () => void;
  /** Enter in a one-line field (Ctrl/Cmd+Enter in the JSON field) saves the row. */
  onSubmit: () => void;
  disabled: boolean;
  invalid: boolean;
  /** The id of the row's status line. */
  describedBy: string;
};

export function SettingValueEditor({
  setting,
  value,
  confirmation,
  onChange,
  onConfirmationChange,
  onBlur,
  onSubmit,
  disabled,
  invalid,
  describedBy,
}: SettingValueEditorProps) {
  const t = useMessages();
  const label = t.settings.editor.valueOf(setting.key);
  const common = {
    disabled,
    "aria-invalid": invalid || undefined,
    "aria-describedby": describedBy,
    "data-slot-editor": setting.type,
  };
  const submitOnEnter = (event: React.KeyboardEvent) => {
    if (event.key === "Enter" && !event.nativeEvent.isComposing) {
      event.preventDefault();
      onSubmit();
    }
  };

  if (setting.key === DEFAULT_USER_GROUP_KEY && setting.type === "integer") {
    return <GroupSelect label={label} value={value} onChange={onChange} onBlur={onBlur} onSubmit={submitOnEnter} {...common} />;
  }
  const choices = settingChoices(setting.key, setting.type);
  if (choices) {
    return (
      <ChoiceSelect
        choices={choices}
        value={value}
        onChange={onChange}
        aria-label={label}
        disabled={disabled}
        aria-invalid={common["aria-invalid"]}
        aria-describedby={describedBy}
        className="max-w-xs bg-background"
      />
    );
  }

  switch (setting.type) {
    case "boolean": {
      const checked = value === "true";
      return (
        <label className="flex w-fit items-center gap-3 py-1.5 text-sm font-medium">
          <Switch checked={checked} onCheckedChange={(next) => onChange(next ? "true" : "false")} aria-label={label} {...common} />
          <span aria-hidden="true">{checked ? t.settings.editor.on : t.settings.editor.off}</span>
        </label>
      );
    }
    case "integer":
      return (
        <Input
          type="number"
          inputMode="numeric"
          step={1}
          min={setting.min_value ?? undefined}
          max={setting.max_value ?? undefined}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          onBlur={onBlur}
          onKeyDown={submitOnEnter}
          aria-label={label}
          className="max-w-48 bg-background"
          {...common}
        />
      );
    case "json":
      return (
        <Textarea
          value={value}
          onChange={(event) => onChange(event.target.value)}
          onBlur={onBlur}
          onKeyDown={(event) => {
            if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
              event.preventDefault();
              onSubmit();
            }
          }}
          aria-label={label}
          spellCheck={false}
          className="max-h-60 bg-background font-mono text-xs md:text-xs"
          {...common}
        />
      );
    case "password":
      return (
        <div className="grid gap-2 sm:grid-cols-2">
          <Input
            type="password"
            autoComplete="new-password"
            placeholder={t.settings.editor.newValue}
            value={value}
            onChange={(event) => onChange(event.target.value)}
            onKeyDown={submitOnEnter}
            aria-label={t.settings.editor.newValueOf(setting.key)}
            className="bg-background"
            {...common}
          />
          <Input
            type="password"
            autoComplete="new-password"
            placeholder={t.settings.editor.confirmNewValue}
            value={confirmation}
            onChange={(event) => onConfirmationChange(event.target.value)}
            onKeyDown={submitOnEnter}
            aria-label={t.settings.editor.confirmNewValueOf(setting.key)}
            className="bg-background"
            {...common}
            data-slot-editor="password-confirmation"
          />
        </div>
      );
    default:
      return (
        <Input
          type="text"
          value={value}
          onChange={(event) => onChange(event.target.value)}
          onBlur={onBlur}
          onKeyDown={submitOnEnter}
          aria-label={label}
          className="bg-background"
          {...common}
        />
      );
  }
}

/** The default user group, chosen from the groups; a number field when they cannot be loaded. */
function GroupSelect({
  label,
  value,
  onChange,
  onBlur,
  onSubmit,
  disabled,
  ...aria
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  onBlur: () => void;
  onSubmit: (event: React.KeyboardEvent) => void;
  disabled: boolean;
  "aria-invalid": true | undefined;
  "aria-describedby": string;
}) {
  const trpc = useTrpc();
  const t = useMessages();
  const groups = useQuery(trpc.groups.list.queryOptions());

  if (groups.isError) {
    return (
      <div className="grid gap-1">
        <Input
          type="number"
          inputMode="numeric"
          step={1}
          min={1}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          onBlur={onBlur}
          onKeyDown={onSubmit}
          aria-label={label}
          disabled={disabled}
          className="max-w-48 bg-background"
          {...aria}
        />
        <p role="alert" className="text-xs text-destructive">
          {t.settings.editor.groupsFailed}
        </p>
      </div>
    );
  }

  const list = groups.data?.groups ?? [];
  const known = list.some((group) => String(group.id) === value);
  return (
    <Select value={value} onValueChange={onChange} disabled={disabled || groups.isPending}>
      <SelectTrigger aria-label={label} className={cn("w-full max-w-xs bg-background")} {...aria}>
        <SelectValue placeholder={groups.isPending ? t.settings.editor.loadingGroups : t.settings.editor.chooseGroup} />
      </SelectTrigger>
      <SelectContent>
        {!known && !groups.isPending && value !== "" && <SelectItem value={value}>{t.settings.editor.unknownGroup(value)}</SelectItem>}
        {list.map((group) => (
          <SelectItem key={group.id} value={String(group.id)}>
            {group.name}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}

/**
 * One of a setting's fixed values. A stored value outside the list (set before the rule existed) is
 * still shown, marked, so the screen never pretends another value is stored.
 */
export function ChoiceSelect({
  choices,
  value,
  onChange,
  id,
  className,
  disabled,
  ...aria
}: {
  choices: readonly string[];
  value: string;
  onChange: (value: string) => void;
  id?: string;
  className?: string;
  disabled?: boolean;
  "aria-label"?: string;
  "aria-invalid"?: true | undefined;
  "aria-describedby"?: string;
}) {
  const t = useMessages();
  const known = choices.includes(value);
  return (
    <Select value={value} onValueChange={onChange} disabled={disabled}>
      <SelectTrigger id={id} className={cn("w-full", className)} data-slot-editor="choice" {...aria}>
        <SelectValue placeholder={t.settings.editor.chooseValue} />
      </SelectTrigger>
      <SelectContent>
        {!known && value !== "" && <SelectItem value={value}>{t.settings.editor.notAllowed(value)}</SelectItem>}
        {choices.map((choice) => (
          <SelectItem key={choice} value={choice}>
            {choice}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
