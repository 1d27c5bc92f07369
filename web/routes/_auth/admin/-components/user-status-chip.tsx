import { useMutation } from "@tanstack/react-query";
import * as React from "react";

import { Badge } from "@/components/ui/badge";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { useSnackbar } from "@/components/ui/snackbar";
import { Tooltip, TooltipContent, TooltipTrigger } from "@/components/ui/tooltip";
import { useErrorText, useMessages } from "@/i18n/use-messages";
import { useTrpc } from "@/lib/auth";
import { useRefreshAdminData } from "./admin-cache";
import type { AdminUser } from "./admin-types";

// docs/product.md §4 "User status": clicking the chip toggles active/inactive after a confirmation.
// Your own chip is read-only: the server refuses to let you deactivate yourself.

export function UserStatusChip({ user, isSelf }: { user: AdminUser; isSelf: boolean }) {
  const trpc = useTrpc();
  const t = useMessages();
  const errorText = useErrorText();
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
      <span className="sr-only">{t.users.status.statusOf(user.username)}</span>
      {t.users.status[user.status]}
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
      showSnackbar(next === "active" ? t.users.status.setToActive : t.users.status.setToInactive, "success");
    } catch (error) {
      showSnackbar(errorText(error, t.users.status.updateFailed), "error");
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
        <TooltipContent>{active ? t.users.status.setInactive : t.users.status.setActive}</TooltipContent>
      </Tooltip>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={active ? t.users.status.confirmInactiveTitle : t.users.status.confirmActiveTitle}
        message={active ? t.users.status.confirmInactiveMessage(user.username) : t.users.status.confirmActiveMessage(user.username)}
        confirmText={active ? t.users.status.setInactive : t.users.status.setActive}
        cancelText={t.common.cancel}
        destructive={active}
        onConfirm={handleConfirm}
      />
    </>
  );
}
