import { useMutation } from "@tanstack/react-query";
import * as React from "react";

import { Badge } from "@/components/ui/badge";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { useSnackbar } from "@/components/ui/snackbar";
import { Tooltip, TooltipContent, TooltipTrigger } from "@/components/ui/tooltip";
import { useTrpc } from "@/lib/auth";
import { errorText } from "@/lib/errors";
import { useRefreshAdminData } from "./admin-cache";
import type { AdminUser } from "./admin-types";

// spec §4 "User status": clicking the chip toggles active/inactive after a confirmation.
// Your own chip is read-only: the server refuses to let you deactivate yourself.

export function UserStatusChip({ user, isSelf }: { user: AdminUser; isSelf: boolean }) {
  const trpc = useTrpc();
  const refresh = useRefreshAdminData();
  const { showSnackbar } = useSnackbar();
  const editUser = useMutation(trpc.users.edit.mutationOptions());
  const [confirming, setConfirming] = React.useState(false);

  const active = user.status === "active";
  const next = active ? "inactive" : "active";
  const variant = active ? "success" : "secondary";
  const content = (
    <>
      <span aria-hidden="true" className="size-1.5 rounded-full bg-current opacity-80" />
      <span className="sr-only">Status of {user.username}: </span>
      {user.status}
    </>
  );

  if (isSelf) {
    return (
      <Badge variant={variant} data-status={user.status}>
        {content}
      </Badge>
    );
  }

  async function handleConfirm() {
    try {
      await editUser.mutateAsync({ id: user.id, status: next });
      showSnackbar(next === "active" ? "User set to active" : "User set to inactive", "success");
    } catch (error) {
      showSnackbar(errorText(error, "Failed to update status"), "error");
    }
    await refresh();
  }

  return (
    <>
      <Tooltip>
        <TooltipTrigger asChild>
          <Badge asChild variant={variant} data-status={user.status}>
            <button type="button" className="cursor-pointer" onClick={() => setConfirming(true)}>
              {content}
            </button>
          </Badge>
        </TooltipTrigger>
        <TooltipContent>Set {next}</TooltipContent>
      </Tooltip>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={active ? "Set user inactive?" : "Set user active?"}
        message={
          active
            ? `${user.username} is signed out everywhere and can no longer log in until set active again.`
            : `${user.username} can log in again.`
        }
        confirmText={active ? "Set inactive" : "Set active"}
        destructive={active}
        onConfirm={handleConfirm}
      />
    </>
  );
}
