import { useStore } from "@tanstack/react-form";
import { useMutation, useQuery } from "@tanstack/react-query";
import * as React from "react";

import { FormFeedback } from "@/components/form-feedback";
import { Modal } from "@/components/ui/modal";
import { useSnackbar } from "@/components/ui/snackbar";
import { Spinner } from "@/components/ui/spinner";
import { permissionDescription } from "@/i18n/built-in-texts";
import { useLocale, useMessages } from "@/i18n/use-messages";
import { useTrpc } from "@/lib/auth";
import { useAppForm, useFormFeedback } from "@/lib/form";
import { groupByPrefix } from "@/lib/permission-prefix";
import { diffSelection, hasChanges } from "@/lib/selection-diff";
import { useRefreshAdminData } from "./admin-cache";
import { LoadError } from "./admin-page";
import type { AdminGroup, AdminPermission } from "./admin-types";

// docs/product.md §4 "Group permissions": one checkbox per permission (grouped by key prefix); the difference
// is saved as additions (addPermissions) and removals (removePermissions), after which the users,
// groups and session caches are refreshed. §8 texts.

export function EditPermissionsDialog({ group, onClose }: { group: AdminGroup | null; onClose: () => void }) {
  const t = useMessages();
  const [busy, setBusy] = React.useState(false);
  return (
    <Modal
      closeLabel={t.common.close}
      open={group !== null}
      onOpenChange={(open) => {
        if (!open && !busy) onClose();
      }}
      title={group ? t.groups.permissionsDialog.title(group.name) : t.groups.editPermissions}
      description={t.groups.permissionsDialog.description}
      className="sm:max-w-xl"
    >
      {group && <PermissionsForm key={group.id} group={group} onDone={onClose} onBusyChange={setBusy} />}
    </Modal>
  );
}

function PermissionsForm({
  group,
  onDone,
  onBusyChange,
}: {
  group: AdminGroup;
  onDone: () => void;
  onBusyChange: (busy: boolean) => void;
}) {
  const trpc = useTrpc();
  const t = useMessages();
  const permissionsQuery = useQuery(trpc.permissions.list.queryOptions());

  if (permissionsQuery.isPending) {
    return (
      <div className="flex min-h-32 items-center justify-center">
        <Spinner className="size-6 text-primary" label={t.permissions.loading} />
      </div>
    );
  }
  if (permissionsQuery.isError) {
    return (
      <LoadError
        title={t.permissions.fetchFailed}
        error={permissionsQuery.error}
        onRetry={() => void permissionsQuery.refetch()}
        retrying={permissionsQuery.isFetching}
      />
    );
  }
  return <PermissionChecklist group={group} permissions={permissionsQuery.data.permissions} onDone={onDone} onBusyChange={onBusyChange} />;
}

function PermissionChecklist({
  group,
  permissions,
  onDone,
  onBusyChange,
}: {
  group: AdminGroup;
  permissions: AdminPermission[];
  onDone: () => void;
  onBusyChange: (busy: boolean) => void;
}) {
  const trpc = useTrpc();
  const t = useMessages();
  const locale = useLocale();
  const refresh = useRefreshAdminData();
  const { showSnackbar } = useSnackbar();
  const addPermissions = useMutation(trpc.groups.addPermissions.mutationOptions());
  const removePermissions = useMutation(trpc.groups.removePermissions.mutationOptions());
  const initial = React.useMemo(() => group.permissions.map((permission) => permission.id), [group]);
  const { feedback, attempt } = useFormFeedback();
  // The ticks the dialog opened with; a refreshed group does not move them.
  const [defaultValues] = React.useState(() => ({ permission_ids: initial }));
  const form = useAppForm({
    defaultValues,
    onSubmit: async ({ value }) => {
      const diff = diffSelection(initial, value.permission_ids);
      if (!hasChanges(diff)) return;
      onBusyChange(true);
      const saved = await attempt(async () => {
        if (diff.added.length > 0) await addPermissions.mutateAsync({ group_id: group.id, permission_ids: diff.added });
        if (diff.removed.length > 0) {
          await removePermissions.mutateAsync({ group_id: group.id, permission_ids: diff.removed });
        }
        return null;
      }, t.groups.permissionsDialog.failed);
      // docs/product.md §4: caches are invalidated after group-permission changes (also after a partial save).
      await refresh();
      onBusyChange(false);
      if (saved) {
        showSnackbar(t.groups.permissionsDialog.updated, "success");
        onDone();
      }
    },
  });
  const selected = useStore(form.store, (state) => state.values.permission_ids);
  const saving = useStore(form.store, (state) => state.isSubmitting);
  const idPrefix = React.useId();
  const sections = groupByPrefix(permissions);

  return (
    <form.AppForm>
      <form.Form className="grid gap-4" aria-label={t.groups.permissionsDialog.formLabel(group.name)}>
        <FormFeedback feedback={feedback} />
        <p className="-mb-2 text-right text-xs text-muted-foreground" aria-live="polite">
          {t.groups.permissionsDialog.selected(selected.length, permissions.length)}
        </p>
        {permissions.length === 0 ? (
          <p className="text-sm text-muted-foreground">{t.permissions.empty}</p>
        ) : (
          <div className="grid max-h-[55dvh] gap-4 overflow-y-auto rounded-md border p-3">
            <form.AppField name="permission_ids">
              {(field) =>
                sections.map((section) => (
                  <fieldset key={section.prefix} className="grid gap-1">
                    <legend className="mb-1 px-1 text-xs font-semibold tracking-wide text-muted-foreground uppercase">
                      {section.prefix}
                    </legend>
                    {section.items.map((permission) => {
                      const id = `${idPrefix}-permission-${permission.id}`;
                      return (
                        <label
                          key={permission.id}
                          htmlFor={id}
                          className="flex cursor-pointer items-start gap-3 rounded-md px-2 py-1.5 hover:bg-accent"
                        >
                          <field.MemberCheckbox id={id} member={permission.id} className="mt-0.5" disabled={saving} />
                          <span className="grid min-w-0 gap-0.5">
                            <span className="font-mono text-sm break-all">{permission.key}</span>
                            {permission.description && (
                              <span className="text-xs text-muted-foreground">
                                {permissionDescription(permission.key, permission.description, locale)}
                              </span>
                            )}
                          </span>
                        </label>
                      );
                    })}
                  </fieldset>
                ))
              }
            </form.AppField>
          </div>
        )}
        <form.Actions
          onCancel={onDone}
          canSubmit={hasChanges(diffSelection(initial, selected))}
          submitLabel={t.common.save}
          busyLabel={t.groups.permissionsDialog.saving}
          cancelLabel={t.common.cancel}
        />
      </form.Form>
    </form.AppForm>
  );
}
