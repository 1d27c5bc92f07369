import { useQueryClient } from "@tanstack/react-query";

import { useTrpc } from "@/lib/auth";

// docs/product.md §4: caches are invalidated after permission and group-permission changes. Users, groups and
// permissions all show each other's data (a user's groups, a group's permissions), and the signed-in
// user's own permissions may have changed, so every change refreshes all of them and the session.
export function useRefreshAdminData(): () => Promise<void> {
  const trpc = useTrpc();
  const queryClient = useQueryClient();
  return async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.users.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.groups.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.permissions.pathKey() }),
      // Also when nothing on screen watches it: the next route guard must read fresh permissions.
      queryClient.invalidateQueries({ queryKey: trpc.account.me.queryKey(), refetchType: "all" }),
    ]);
  };
}
