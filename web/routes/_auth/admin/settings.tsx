import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { createFileRoute, useLocation } from "@tanstack/react-router";
import PlusIcon from "lucide-react/icons/plus";
import * as React from "react";

import { Button } from "@/components/ui/button";
import { Card, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { useSnackbar } from "@/components/ui/snackbar";
import { settingGroupTitle } from "@/i18n/built-in-texts";
import { useErrorText, useLocale, useMessages } from "@/i18n/use-messages";
import { useSession, useTrpc } from "@/lib/auth";
import { hasPermission, PERMISSIONS } from "#src/features/auth/permission-keys";
import { AdminPage, LoadError, LoadingState } from "./-components/admin-page";
import { BackupsCard } from "./-settings/backups-card";
import { MollieKeyAlert } from "./-settings/mollie-key-alert";
import { SettingFormDialog } from "./-settings/setting-form-dialog";
import { SettingRow } from "./-settings/setting-row";
import { groupSettings, type Setting, settingAnchor } from "./-settings/setting-utils";

// docs/product.md §2 "Settings Management": settings grouped by group_name (a card per group), inline editing
// with row colours (§4), an add/edit dialog (§5) and delete for holders of settings.delete (§6).
export const Route = createFileRoute("/_auth/admin/settings")({
  component: SettingsPage,
});

type DialogState = { open: boolean; setting: Setting | null; key: number };

function SettingsPage() {
  const trpc = useTrpc();
  const queryClient = useQueryClient();
  const { showSnackbar } = useSnackbar();
  const { user } = useSession();
  const t = useMessages();
  const locale = useLocale();
  const errorText = useErrorText();
  const settings = useQuery(trpc.settings.list.queryOptions());
  const hash = useLocation({ select: (location) => location.hash });
  const remove = useMutation(trpc.settings.delete.mutationOptions());

  const [dialog, setDialog] = React.useState<DialogState>({ open: false, setting: null, key: 0 });
  const [toDelete, setToDelete] = React.useState<Setting | null>(null);

  const list = settings.data?.settings;
  const groups = React.useMemo(() => groupSettings(list ?? []), [list]);
  const groupNames = React.useMemo(() => groups.map((group) => group.name), [groups]);
  const canDelete = hasPermission(user, PERMISSIONS.settingsDelete);

  // A fresh form each time the dialog opens (the key remounts it).
  const openDialog = (setting: Setting | null) => setDialog((previous) => ({ open: true, setting, key: previous.key + 1 }));

  async function confirmDelete() {
    const setting = toDelete;
    if (!setting) return;
    try {
      await remove.mutateAsync({ key: setting.key });
      showSnackbar(t.settings.deleted(setting.key), "success");
      await queryClient.invalidateQueries({ queryKey: trpc.settings.list.queryKey() });
    } catch (error) {
      showSnackbar(errorText(error, t.settings.deleteFailed), "error");
    }
  }

  return (
    <AdminPage
      title={t.settings.title}
      description={t.settings.description}
      actions={
        <Button onClick={() => openDialog(null)}>
          <PlusIcon aria-hidden="true" />
          {t.settings.addSetting}
        </Button>
      }
    >
      <MollieKeyAlert settingsUpdatedAt={settings.dataUpdatedAt} />
      {settings.isPending ? (
        <LoadingState label={t.settings.loading} />
      ) : settings.isError && !list ? (
        <LoadError
          title={t.settings.loadFailed}
          error={settings.error}
          onRetry={() => void settings.refetch()}
          retrying={settings.isFetching}
        />
      ) : groups.length === 0 ? (
        <p className="rounded-xl border bg-card p-6 text-muted-foreground">{t.settings.empty}</p>
      ) : (
        <div className="flex flex-col gap-6">
          {groups.map((group) => (
            <Card key={group.name} className="gap-0 overflow-hidden py-0" data-slot="settings-group" data-group={group.name}>
              <CardHeader className="border-b bg-muted/40 py-4 [.border-b]:pb-4">
                <CardTitle>
                  <h2 className="text-lg">{settingGroupTitle(group.name, locale)}</h2>
                </CardTitle>
                <CardDescription>
                  {t.settings.groupCount(group.settings.length)} <span className="font-mono">{group.name}</span>
                </CardDescription>
              </CardHeader>
              <ul className="divide-y" aria-label={t.settings.groupLabel(settingGroupTitle(group.name, locale))}>
                {group.settings.map((setting) => (
                  <SettingRow
                    key={setting.key}
                    setting={setting}
                    canDelete={canDelete}
                    onEdit={openDialog}
                    onDelete={setToDelete}
                    targeted={hash === settingAnchor(setting.key)}
                  />
                ))}
              </ul>
            </Card>
          ))}
        </div>
      )}
      <BackupsCard />

      <SettingFormDialog
        key={dialog.key}
        open={dialog.open}
        onOpenChange={(open) => setDialog((previous) => ({ ...previous, open }))}
        setting={dialog.setting}
        groupNames={groupNames}
      />
      <ConfirmDialog
        open={toDelete !== null}
        onOpenChange={(open) => {
          if (!open) setToDelete(null);
        }}
        title={t.settings.deleteDialog.title}
        message={
          toDelete && (
            <>
              {t.settings.deleteDialog.messageStart} <span className="font-mono font-medium text-foreground">{toDelete.key}</span>{" "}
              {t.settings.deleteDialog.messageEnd}
            </>
          )
        }
        confirmText={t.common.delete}
        cancelText={t.common.cancel}
        destructive
        onConfirm={confirmDelete}
      />
    </AdminPage>
  );
}
