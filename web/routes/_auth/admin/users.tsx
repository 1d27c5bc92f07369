import { useQuery } from "@tanstack/react-query";
import { createFileRoute } from "@tanstack/react-router";
import * as React from "react";

import { useMessages } from "@/i18n/use-messages";
import { useSession, useTrpc } from "@/lib/auth";
import { passwordMinLength } from "@/lib/password-min-length";
import { toSettingsLookup } from "@/lib/settings";
import { AdminPage, LoadError, LoadingState } from "./-components/admin-page";
import { AddUserButton } from "./-components/add-user-dialog";
import type { AdminUser } from "./-components/admin-types";
import { ChangePasswordDialog } from "./-components/change-password-dialog";
import { UserCards, UsersTable } from "./-components/users-table";

// docs/product.md §2 "Admin screens", User Management; §4 user status; §5 admin rules; §8 messages; an
// 'Add user' dialog (docs/architecture.md §6 POST /api/users/invite).
export const Route = createFileRoute("/_auth/admin/users")({
  loader: ({ context: { queryClient, trpc } }) => {
    // Started while the page's code loads; the page shows its own spinner and load error.
    void queryClient.prefetchQuery(trpc.users.list.queryOptions());
    void queryClient.prefetchQuery(trpc.groups.list.queryOptions());
  },
  component: UserManagementPage,
});

function UserManagementPage() {
  const trpc = useTrpc();
  const t = useMessages();
  const { user: viewer } = useSession();
  const usersQuery = useQuery(trpc.users.list.queryOptions());
  // Only the group selector needs the groups; without them the groups show as read-only chips.
  const groupsQuery = useQuery(trpc.groups.list.queryOptions());
  const settingsQuery = useQuery(trpc.settings.list.queryOptions());
  const [passwordUser, setPasswordUser] = React.useState<AdminUser | null>(null);

  const settings = toSettingsLookup(settingsQuery.data?.settings);
  const minLength = passwordMinLength(settings);
  const defaultGroupId = typeof settings.default_user_group_id === "number" ? settings.default_user_group_id : undefined;
  const users = usersQuery.data?.users;

  return (
    <AdminPage
      title={t.users.title}
      description={users ? t.users.count(users.length) : undefined}
      actions={<AddUserButton groups={groupsQuery.data?.groups} defaultGroupId={defaultGroupId} />}
    >
      {usersQuery.isPending ? (
        <LoadingState label={t.users.loading} />
      ) : usersQuery.isError ? (
        <LoadError
          title={t.users.fetchFailed}
          error={usersQuery.error}
          onRetry={() => void usersQuery.refetch()}
          retrying={usersQuery.isFetching}
        />
      ) : (
        <>
          <UsersTable users={usersQuery.data.users} groups={groupsQuery.data?.groups} viewer={viewer} onChangePassword={setPasswordUser} />
          <UserCards users={usersQuery.data.users} groups={groupsQuery.data?.groups} viewer={viewer} onChangePassword={setPasswordUser} />
        </>
      )}
      <ChangePasswordDialog user={passwordUser} minLength={minLength} onClose={() => setPasswordUser(null)} />
    </AdminPage>
  );
}
