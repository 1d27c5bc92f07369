import { useQuery } from "@tanstack/react-query";
import { createFileRoute } from "@tanstack/react-router";

import { useMessages } from "@/i18n/use-messages";
import { useTrpc } from "@/lib/auth";
import { AddPermissionButton } from "./-components/add-permission-dialog";
import { AdminPage, LoadError, LoadingState } from "./-components/admin-page";
import { PermissionSections } from "./-components/permission-sections";

// docs/product.md §2 "Admin screens", Permission Management; §5 admin rules; §8 messages.
export const Route = createFileRoute("/_auth/admin/permissions")({
  loader: ({ context: { queryClient, trpc } }) => {
    void queryClient.prefetchQuery(trpc.permissions.list.queryOptions());
  },
  component: PermissionManagementPage,
});

function PermissionManagementPage() {
  const trpc = useTrpc();
  const t = useMessages();
  const permissionsQuery = useQuery(trpc.permissions.list.queryOptions());
  const permissions = permissionsQuery.data?.permissions;

  return (
    <AdminPage
      title={t.permissions.title}
      description={permissions ? t.permissions.count(permissions.length) : undefined}
      actions={<AddPermissionButton />}
    >
      {permissionsQuery.isPending ? (
        <LoadingState label={t.permissions.loading} />
      ) : permissionsQuery.isError ? (
        <LoadError
          title={t.permissions.fetchFailed}
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
