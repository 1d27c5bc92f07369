import { useQuery } from "@tanstack/react-query";
import { createFileRoute } from "@tanstack/react-router";

import { useTrpc } from "@/lib/auth";
import { AddPermissionButton } from "./-components/add-permission-dialog";
import { AdminPage, LoadError, LoadingState } from "./-components/admin-page";
import { PermissionSections } from "./-components/permission-sections";

// spec §2 "Admin screens", Permission Management; §5 admin rules; §8 messages.
export const Route = createFileRoute("/_auth/admin/permissions")({
  loader: ({ context: { queryClient, trpc } }) => {
    void queryClient.prefetchQuery(trpc.permissions.list.queryOptions());
  },
  component: PermissionManagementPage,
});

function PermissionManagementPage() {
  const trpc = useTrpc();
  const permissionsQuery = useQuery(trpc.permissions.list.queryOptions());
  const permissions = permissionsQuery.data?.permissions;

  return (
    <AdminPage
      title="Permission Management"
      description={
        permissions ? `${permissions.length} ${permissions.length === 1 ? "permission" : "permissions"}` : undefined
      }
      actions={<AddPermissionButton />}
    >
      {permissionsQuery.isPending ? (
        <LoadingState label="Loading permissions" />
      ) : permissionsQuery.isError ? (
        <LoadError
          title="Failed to fetch permissions"
          error={permissionsQuery.error}
          onRetry={() => void permissionsQuery.refetch()}
          retrying={permissionsQuery.isFetching}
        />
      ) : (
        <PermissionSections permissions={permissionsQuery.data.permissions} />
      )}
    </AdminPage>
  );
}
