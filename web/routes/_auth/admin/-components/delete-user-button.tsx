import { useMutation } from "@tanstack/react-query";

import { useSnackbar } from "@/components/ui/snackbar";
import { useErrorText, useMessages } from "@/i18n/use-messages";
import { useTrpc } from "@/lib/auth";
import { useRefreshAdminData } from "./admin-cache";
import { DeleteWithConfirm } from "./delete-with-confirm";
import type { AdminUser } from "./admin-types";

// docs/product.md §5 deletion and §6 users.delete: the caller shows this only to holders of users.delete, for
// deletable users other than themselves.
export function DeleteUserButton({ user }: { user: AdminUser }) {
  const trpc = useTrpc();
  const t = useMessages();
  const errorText = useErrorText();
  const refresh = useRefreshAdminData();
  const { showSnackbar } = useSnackbar();
  const deleteUser = useMutation(trpc.users.delete.mutationOptions());

  async function handleConfirm() {
    try {
      await deleteUser.mutateAsync({ id: user.id });
      showSnackbar(t.users.deleteUser.deleted, "success");
    } catch (error) {
      showSnackbar(errorText(error, t.users.deleteUser.failed), "error");
    }
    await refresh();
  }

  return (
    <DeleteWithConfirm
      label={t.users.deleteUser.label(user.username)}
      tooltip={t.users.deleteUser.tooltip}
      title={t.users.deleteUser.title}
      message={t.users.deleteUser.message(user.username)}
      onConfirm={handleConfirm}
    />
  );
}
