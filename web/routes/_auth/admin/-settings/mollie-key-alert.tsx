import { useQuery, useQueryClient } from "@tanstack/react-query";
import CircleAlertIcon from "lucide-react/icons/circle-alert";
import * as React from "react";

import { Alert, AlertDescription } from "@/components/ui/alert";
import { useFormatDateTime, useMessages } from "@/i18n/use-messages";
import { useSession, useTrpc } from "@/lib/auth";
import { hasPermission, PERMISSIONS } from "#src/features/auth/permission-keys";

/**
 * docs/decisions/066: while Mollie refuses the key that is stored now, the admin is told so here, where the key is
 * entered. Asked only for an admin (the call is theirs alone), and again after every save of a setting
 * (`settingsUpdatedAt`), since a new key ends the warning.
 */
export function MollieKeyAlert({ settingsUpdatedAt }: { settingsUpdatedAt: number }) {
  const trpc = useTrpc();
  const queryClient = useQueryClient();
  const { user } = useSession();
  const t = useMessages();
  const formatDateTime = useFormatDateTime();
  const isAdmin = hasPermission(user, PERMISSIONS.adminAccess);
  const status = useQuery({ ...trpc.onlinePayments.keyStatus.queryOptions(), enabled: isAdmin });

  const seen = React.useRef(settingsUpdatedAt);
  React.useEffect(() => {
    if (seen.current === settingsUpdatedAt) return;
    seen.current = settingsUpdatedAt;
    if (isAdmin) void queryClient.invalidateQueries({ queryKey: trpc.onlinePayments.keyStatus.queryKey() });
  }, [settingsUpdatedAt, isAdmin, queryClient, trpc]);

  const refusedAt = status.data?.key_set ? status.data.refused_at : null;
  if (!isAdmin || !refusedAt) return null;
  return (
    <Alert variant="destructive" data-slot="mollie-key-refused">
      <CircleAlertIcon aria-hidden="true" />
      <AlertDescription>{t.settings.mollieKeyRefused(formatDateTime(refusedAt))}</AlertDescription>
    </Alert>
  );
}
