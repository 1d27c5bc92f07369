import { useQuery } from "@tanstack/react-query";
import { createFileRoute } from "@tanstack/react-router";
import * as React from "react";

import { useMessages } from "@/i18n/use-messages";
import { useTrpc } from "@/lib/auth";
import { AddGroupButton } from "./-components/add-group-dialog";
import { AdminPage, LoadError, LoadingState } from "./-components/admin-page";
import type { AdminGroup } from "./-components/admin-types";
import { DismissibleErrorAlert } from "./-components/dismissible-alert";
import { EditPermissionsDialog } from "./-components/edit-permissions-dialog";
import { GroupCards, GroupsTable } from "./-components/groups-table";

// docs/product.md §2 "Admin screens", Group Management; §4 group permissions; §5 admin rules; §8 messages.
export const Route = createFileRoute("/_auth/admin/groups")({
  loader: ({ context: { queryClient, trpc } }) => {
    void queryClient.prefetchQuery(trpc.groups.list.queryOptions());
    // For the Edit Permissions dialog.
    void queryClient.prefetchQuery(trpc.permissions.list.queryOptions());
  },
  component: GroupManagementPage,
});

function GroupManagementPage() {
  const trpc = useTrpc();
  const t = useMessages();
  const groupsQuery = useQuery(trpc.groups.list.queryOptions());
  const [editingId, setEditingId] = React.useState<number | null>(null);
  const [deleteError, setDeleteError] = React.useState<string | null>(null);

  const groups = groupsQuery.data?.groups;
  const editPermissions = (group: AdminGroup) => setEditingId(group.id);
  // The dialog follows the list, so it always starts from the group's current permissions.
  const editing = groups?.find((group) => group.id === editingId) ?? null;

  return (
    <AdminPage title={t.groups.title} description={groups ? t.groups.count(groups.length) : undefined} actions={<AddGroupButton />}>
      {deleteError && <DismissibleErrorAlert message={deleteError} onDismiss={() => setDeleteError(null)} />}
      {groupsQuery.isPending ? (
        <LoadingState label={t.groups.loading} />
      ) : groupsQuery.isError ? (
        <LoadError
          title={t.groups.fetchFailed}
          error={groupsQuery.error}
          onRetry={() => void groupsQuery.refetch()}
          retrying={groupsQuery.isFetching}
        />
      ) : (
        <>
          <GroupsTable groups={groupsQuery.data.groups} onEditPermissions={editPermissions} onDeleteError={setDeleteError} />
          <GroupCards groups={groupsQuery.data.groups} onEditPermissions={editPermissions} onDeleteError={setDeleteError} />
        </>
      )}
      <EditPermissionsDialog group={editing} onClose={() => setEditingId(null)} />
    </AdminPage>
  );
}
