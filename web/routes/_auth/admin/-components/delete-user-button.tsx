import { useMutation } from "@tanstack/react-query";
import Trash2Icon from "lucide-react/icons/trash-2";
import * as React from "react";

import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { useSnackbar } from "@/components/ui/snackbar";
import { Tooltip, TooltipContent, TooltipTrigger } from "@/components/ui/tooltip";
import { useTrpc } from "@/lib/auth";
import { errorText } from "@/lib/errors";
import { useRefreshAdminData } from "./admin-cache";
import type { AdminUser } from "./admin-types";

// spec §5 deletion and §6 users.delete: the caller shows this only to holders of users.delete, for
// deletable users other than themselves.
export function DeleteUserButton({ user }: { user: AdminUser }) {
  const trpc = useTrpc();
  const refresh = useRefreshAdminData();
  const { showSnackbar } = useSnackbar();
  const deleteUser = useMutation(trpc.users.delete.mutationOptions());
  const [confirming, setConfirming] = React.useState(false);

  async function handleConfirm() {
    try {
      await deleteUser.mutateAsync({ id: user.id });
      showSnackbar("User deleted", "success");
    } catch (error) {
      showSnackbar(errorText(error, "Failed to delete user"), "error");
    }
    await refresh();
  }

  return (
    <>
      <Tooltip>
        <TooltipTrigger asChild>
          <Button
            variant="ghost"
            size="icon"
            className="size-8 text-destructive hover:bg-destructive/10 hover:text-destructive"
            aria-label={`Delete ${user.username}`}
            onClick={() => setConfirming(true)}
          >
            <Trash2Icon aria-hidden="true" />
          </Button>
        </TooltipTrigger>
        <TooltipContent>Delete user</TooltipContent>
      </Tooltip>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Delete user?"
        message={`${user.username} and their sessions are removed for good. This cannot be undone.`}
        confirmText="Delete"
        destructive
        onConfirm={handleConfirm}
      />
    </>
  );
}
