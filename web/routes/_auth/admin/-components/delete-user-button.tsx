import { useMutation } from "@tanstack/react-query";

import { useSnackbar } from "@/components/ui/snackbar";
import { useTrpc } from "@/lib/auth";
import { errorText } from "@/lib/errors";
import { useRefreshAdminData } from "./admin-cache";
import { DeleteWithConfirm } from "./delete-with-confirm";
import type { AdminUser } from "./admin-types";

// spec §5 deletion and §6 users.delete: the caller shows this only to holders of users.delete, for
// deletable users other than themselves.
export function DeleteUserButton({ user }: { user: AdminUser }) {
  const trpc = useTrpc();
  const refresh = useRefreshAdminData();
  const { showSnackbar } = useSnackbar();
  const deleteUser = useMutation(trpc.users.delete.mutationOptions());

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
    <DeleteWithConfirm
      label={`Delete ${user.username}`}
      tooltip="Delete user"
      title="Delete user?"
      message={`${user.username} and their sessions are removed for good. This cannot be undone.`}
      onConfirm={handleConfirm}
    />
  );
}
