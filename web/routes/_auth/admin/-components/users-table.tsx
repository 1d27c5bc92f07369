import KeyRoundIcon from "lucide-react/icons/key-round";

import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { Tooltip, TooltipContent, TooltipTrigger } from "@/components/ui/tooltip";
import { useFormatDateTime, useMessages } from "@/i18n/use-messages";
import { hasPermission, PERMISSIONS } from "#src/features/auth/permission-keys";
import type { SessionUser } from "@/lib/session";
import type { AdminGroup, AdminUser } from "./admin-types";
import { DeleteUserButton } from "./delete-user-button";
import { UserGroupsCell } from "./user-groups-cell";
import { UserStatusChip } from "./user-status-chip";

// docs/product.md §2 User Management: ID, Username, Email, Groups, Status, Created, Updated, Actions. Below the
// md breakpoint the same columns show as one card per user, so nothing hides off-screen on a phone.

type UsersViewProps = {
  users: AdminUser[];
  groups: AdminGroup[] | undefined;
  viewer: SessionUser | null;
  onChangePassword: (user: AdminUser) => void;
};

export function UsersTable({ users, groups, viewer, onChangePassword }: UsersViewProps) {
  const t = useMessages();
  const formatDateTime = useFormatDateTime();
  const canAssign = hasPermission(viewer, PERMISSIONS.usersAssign);
  const canDelete = hasPermission(viewer, PERMISSIONS.usersDelete);
  return (
    <div className="hidden overflow-hidden rounded-xl border bg-card shadow-sm md:block">
      <Table aria-label={t.users.listLabel}>
        <TableHeader className="bg-muted/50">
          <TableRow className="hover:bg-transparent">
            <TableHead className="w-12 pl-4">{t.users.id}</TableHead>
            <TableHead>{t.users.username}</TableHead>
            <TableHead>{t.users.email}</TableHead>
            <TableHead>{t.users.groups}</TableHead>
            <TableHead>{t.common.status}</TableHead>
            <TableHead>{t.common.created}</TableHead>
            <TableHead>{t.common.updated}</TableHead>
            <TableHead className="pr-4 text-right">{t.common.actions}</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {users.map((user) => {
            const isSelf = viewer?.id === user.id;
            return (
              <TableRow key={user.id} data-user={user.username}>
                <TableCell className="pl-4 text-muted-foreground tabular-nums">{user.id}</TableCell>
                <TableCell className="font-medium">
                  <span className="flex items-center gap-2">
                    {user.username}
                    {isSelf && <Badge variant="outline">{t.users.you}</Badge>}
                  </span>
                </TableCell>
                <TableCell className="max-w-56 truncate">{user.email ?? <span className="text-muted-foreground">–</span>}</TableCell>
                <TableCell>
                  <UserGroupsCell user={user} groups={groups} editable={canAssign && user.deletable} />
                </TableCell>
                <TableCell>
                  <UserStatusChip user={user} isSelf={isSelf} />
                </TableCell>
                <TableCell className="text-muted-foreground">{formatDateTime(user.created_at)}</TableCell>
                <TableCell className="text-muted-foreground">{formatDateTime(user.updated_at)}</TableCell>
                <TableCell className="pr-4">
                  <div className="flex items-center justify-end gap-1">
                    <ChangePasswordButton user={user} onClick={() => onChangePassword(user)} />
                    {canDelete && user.deletable && !isSelf && <DeleteUserButton user={user} />}
                  </div>
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </div>
  );
}

/** The phone layout: one card per user with the same fields and actions as the table. */
export function UserCards({ users, groups, viewer, onChangePassword }: UsersViewProps) {
  const t = useMessages();
  const formatDateTime = useFormatDateTime();
  const canAssign = hasPermission(viewer, PERMISSIONS.usersAssign);
  const canDelete = hasPermission(viewer, PERMISSIONS.usersDelete);
  return (
    <ul className="grid gap-3 md:hidden" aria-label={t.users.listLabel}>
      {users.map((user) => {
        const isSelf = viewer?.id === user.id;
        return (
          <li key={user.id} data-user-card={user.username} className="rounded-xl border bg-card p-4 shadow-sm">
            <div className="flex items-start justify-between gap-3">
              <div className="flex min-w-0 flex-wrap items-center gap-2">
                <span className="truncate font-semibold">{user.username}</span>
                {isSelf && <Badge variant="outline">{t.users.you}</Badge>}
              </div>
              <UserStatusChip user={user} isSelf={isSelf} />
            </div>
            <dl className="mt-3 grid grid-cols-[5.5rem_1fr] items-center gap-x-3 gap-y-2 text-sm">
              <dt className="text-muted-foreground">{t.users.id}</dt>
              <dd className="tabular-nums">{user.id}</dd>
              <dt className="text-muted-foreground">{t.users.email}</dt>
              <dd className="min-w-0 truncate">{user.email ?? <span className="text-muted-foreground">–</span>}</dd>
              <dt className="text-muted-foreground">{t.users.groups}</dt>
              <dd className="min-w-0">
                <UserGroupsCell user={user} groups={groups} editable={canAssign && user.deletable} />
              </dd>
              <dt className="text-muted-foreground">{t.common.created}</dt>
              <dd>{formatDateTime(user.created_at)}</dd>
              <dt className="text-muted-foreground">{t.common.updated}</dt>
              <dd>{formatDateTime(user.updated_at)}</dd>
            </dl>
            <div className="mt-3 flex items-center justify-end gap-1 border-t pt-3">
              <Button variant="outline" size="sm" onClick={() => onChangePassword(user)}>
                <KeyRoundIcon aria-hidden="true" />
                <span className="sr-only">{t.users.changePasswordOf(user.username)}</span>
                <span aria-hidden="true">{t.users.changePassword}</span>
              </Button>
              {canDelete && user.deletable && !isSelf && <DeleteUserButton user={user} />}
            </div>
          </li>
        );
      })}
    </ul>
  );
}

function ChangePasswordButton({ user, onClick }: { user: AdminUser; onClick: () => void }) {
  const t = useMessages();
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <Button variant="ghost" size="icon" className="size-8" aria-label={t.users.changePasswordOf(user.username)} onClick={onClick}>
          <KeyRoundIcon aria-hidden="true" />
        </Button>
      </TooltipTrigger>
      <TooltipContent>{t.users.changePassword}</TooltipContent>
    </Tooltip>
  );
}
