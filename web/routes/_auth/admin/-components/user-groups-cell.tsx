import { useStore } from "@tanstack/react-form";
import { useMutation } from "@tanstack/react-query";
import ChevronsUpDownIcon from "lucide-react/icons/chevrons-up-down";
import * as React from "react";

import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Popover, PopoverContent, PopoverTrigger } from "@/components/ui/popover";
import { useSnackbar } from "@/components/ui/snackbar";
import { Spinner } from "@/components/ui/spinner";
import { groupDescription } from "@/i18n/built-in-texts";
import { useErrorText, useLocale, useMessages } from "@/i18n/use-messages";
import { useTrpc } from "@/lib/auth";
import { submitForm, useAppForm } from "@/lib/form";
import { diffSelection, hasChanges } from "@/lib/selection-diff";
import { useRefreshAdminData } from "./admin-cache";
import type { AdminGroup, AdminUser } from "./admin-types";

// docs/product.md §2 User Management "group selector"; §5: editable only for deletable users; §6: only with
// users.assign. Otherwise the groups are read-only chips. The ticked set is saved as its difference:
// assignGroup for each group added, removeGroup for each group taken away.

export function UserGroupsCell({
  user,
  groups,
  editable,
}: {
  user: AdminUser;
  /** Every group; undefined while the list is not (yet) available, which makes the cell read-only. */
  groups: AdminGroup[] | undefined;
  editable: boolean;
}) {
  if (!editable || !groups) return <GroupChips groups={user.groups} />;
  return <GroupSelector user={user} groups={groups} />;
}

function GroupChips({ groups }: { groups: AdminUser["groups"] }) {
  const t = useMessages();
  if (groups.length === 0) return <span className="text-muted-foreground">{t.common.none}</span>;
  return (
    <ul className="flex flex-wrap gap-1" aria-label={t.users.groups}>
      {groups.map((group) => (
        <li key={group.id}>
          <Badge variant="outline">{group.name}</Badge>
        </li>
      ))}
    </ul>
  );
}

function GroupSelector({ user, groups }: { user: AdminUser; groups: AdminGroup[] }) {
  const trpc = useTrpc();
  const t = useMessages();
  const locale = useLocale();
  const errorText = useErrorText();
  const refresh = useRefreshAdminData();
  const { showSnackbar } = useSnackbar();
  const assignGroup = useMutation(trpc.users.assignGroup.mutationOptions());
  const removeGroup = useMutation(trpc.users.removeGroup.mutationOptions());
  const [open, setOpen] = React.useState(false);
  const idPrefix = React.useId();

  const current = user.groups.map((group) => group.id);
  const form = useAppForm({
    defaultValues: { group_ids: current },
    onSubmit: async ({ value }) => {
      const diff = diffSelection(current, value.group_ids);
      try {
        for (const groupId of diff.added) await assignGroup.mutateAsync({ user_id: user.id, group_id: groupId });
        for (const groupId of diff.removed) await removeGroup.mutateAsync({ user_id: user.id, group_id: groupId });
        showSnackbar(t.users.groupSelector.updated, "success");
      } catch (error) {
        showSnackbar(errorText(error, t.users.groupSelector.updateFailed), "error");
      } finally {
        // Also after a failure: part of the changes may have been saved.
        await refresh();
        setOpen(false);
      }
    },
  });
  const selected = useStore(form.store, (state) => state.values.group_ids);
  const saving = useStore(form.store, (state) => state.isSubmitting);

  function handleOpenChange(next: boolean) {
    if (saving) return;
    // Every opening starts from the user's groups as the list shows them now.
    if (next) form.reset();
    setOpen(next);
  }

  return (
    <Popover open={open} onOpenChange={handleOpenChange}>
      <PopoverTrigger asChild>
        <Button variant="outline" size="sm" className="h-auto min-h-8 max-w-64 justify-between gap-2 py-1 pr-2 pl-1.5 font-normal">
          <span className="sr-only">{t.users.groupSelector.editGroupsOf(user.username)}</span>
          {user.groups.length > 0 ? (
            <span className="flex flex-wrap gap-1">
              {user.groups.map((group) => (
                <Badge key={group.id} variant="secondary">
                  {group.name}
                </Badge>
              ))}
            </span>
          ) : (
            <span className="px-1 text-muted-foreground">{t.common.none}</span>
          )}
          <ChevronsUpDownIcon aria-hidden="true" className="text-muted-foreground" />
        </Button>
      </PopoverTrigger>
      <PopoverContent align="start" className="grid gap-3 p-3" aria-label={t.users.groupSelector.groupsOf(user.username)}>
        <p className="px-1 text-sm font-semibold">{t.users.groupSelector.groupsOf(user.username)}</p>
        <form.AppField name="group_ids">
          {(field) => (
            <ul className="grid max-h-64 gap-0.5 overflow-y-auto">
              {groups.map((group) => {
                const id = `${idPrefix}-group-${group.id}`;
                return (
                  <li key={group.id}>
                    <label
                      htmlFor={id}
                      className="flex cursor-pointer items-start gap-3 rounded-md px-2 py-1.5 hover:bg-accent has-disabled:cursor-not-allowed"
                    >
                      <field.MemberCheckbox id={id} member={group.id} className="mt-0.5" disabled={saving} />
                      <span className="grid min-w-0 gap-0.5">
                        <span className="text-sm font-medium">{group.name}</span>
                        {group.description && (
                          <span className="text-xs text-muted-foreground">{groupDescription(group.name, group.description, locale)}</span>
                        )}
                      </span>
                    </label>
                  </li>
                );
              })}
            </ul>
          )}
        </form.AppField>
        <div className="flex justify-end gap-2 border-t pt-3">
          <Button variant="outline" size="sm" onClick={() => handleOpenChange(false)} disabled={saving}>
            {t.common.cancel}
          </Button>
          <Button
            size="sm"
            onClick={() => submitForm(form)}
            disabled={saving || !hasChanges(diffSelection(current, selected))}
            aria-busy={saving || undefined}
          >
            {saving && <Spinner label={t.users.groupSelector.saving} />}
            {t.common.save}
          </Button>
        </div>
      </PopoverContent>
    </Popover>
  );
}
