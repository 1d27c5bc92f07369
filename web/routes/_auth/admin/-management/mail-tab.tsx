import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import InfoIcon from "lucide-react/icons/info";
import RotateCwIcon from "lucide-react/icons/rotate-cw";
import * as React from "react";

import { Alert, AlertDescription } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { useSnackbar } from "@/components/ui/snackbar";
import { Spinner } from "@/components/ui/spinner";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useTrpc } from "@/lib/auth";
import { errorText } from "@/lib/errors";
import { LoadError, LoadingState } from "../-components/admin-page";
import { formatNlDate, type MailMessage } from "./shared";

// Issue 6 item 4: every outbox message's state for admins, with a retry, and why mail waits.

const STATUS_LABELS: Record<MailMessage["status"], string> = {
  queued: "In wachtrij",
  sending: "Bezig",
  sent: "Verstuurd",
  failed: "Mislukt",
};

const STATUS_VARIANT: Record<MailMessage["status"], "default" | "secondary" | "destructive" | "outline"> = {
  queued: "secondary",
  sending: "outline",
  sent: "default",
  failed: "destructive",
};

export function MailTab({ onError }: { onError: (message: string) => void }) {
  const trpc = useTrpc();
  const queryClient = useQueryClient();
  const { showSnackbar } = useSnackbar();
  const mailQuery = useQuery({ ...trpc.mail.list.queryOptions(), refetchInterval: 15_000 });
  const retry = useMutation(trpc.mail.retry.mutationOptions());
  const [retrying, setRetrying] = React.useState<number | null>(null);

  async function handleRetry(id: number) {
    setRetrying(id);
    try {
      const result = await retry.mutateAsync({ id });
      const message = (result as { message?: unknown } | null)?.message;
      showSnackbar(typeof message === "string" ? message : "Opnieuw in de wachtrij gezet", "info");
    } catch (error) {
      onError(errorText(error, "Failed to retry mail"));
    } finally {
      setRetrying(null);
      await queryClient.invalidateQueries({ queryKey: trpc.mail.list.pathKey() });
    }
  }

  if (mailQuery.isPending) return <LoadingState label="Mail laden" />;
  if (mailQuery.isError)
    return (
      <LoadError title="Failed to fetch mail" error={mailQuery.error} onRetry={() => void mailQuery.refetch()} retrying={mailQuery.isFetching} />
    );

  const { notice, counts, messages } = mailQuery.data;
  return (
    <div className="grid gap-3">
      {notice && (
        <Alert data-slot="mail-notice">
          <InfoIcon aria-hidden="true" />
          <AlertDescription>{notice}</AlertDescription>
        </Alert>
      )}
      <div className="flex flex-wrap gap-2 text-sm">
        {(Object.keys(STATUS_LABELS) as MailMessage["status"][]).map((status) => (
          <Badge key={status} variant={STATUS_VARIANT[status]}>
            {STATUS_LABELS[status]}: {counts[status] ?? 0}
          </Badge>
        ))}
      </div>
      <div className="overflow-x-auto rounded-xl border bg-card">
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>Status</TableHead>
              <TableHead>Aan</TableHead>
              <TableHead>Onderwerp</TableHead>
              <TableHead className="text-right">Pogingen</TableHead>
              <TableHead>Volgende poging</TableHead>
              <TableHead>Aangemaakt</TableHead>
              <TableHead className="text-right">Acties</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {messages.length === 0 ? (
              <TableRow>
                <TableCell colSpan={7} className="text-center text-muted-foreground">
                  Geen berichten.
                </TableCell>
              </TableRow>
            ) : (
              messages.map((m) => (
                <TableRow key={m.id} data-mail={m.id}>
                  <TableCell>
                    <Badge variant={STATUS_VARIANT[m.status]}>{STATUS_LABELS[m.status]}</Badge>
                    {m.last_error && <div className="mt-1 max-w-64 text-xs text-destructive">{m.last_error}</div>}
                  </TableCell>
                  <TableCell className="max-w-48 truncate">{m.to}</TableCell>
                  <TableCell className="min-w-48">
                    {m.subject}
                    {m.attachments.length > 0 && <div className="text-xs text-muted-foreground">{m.attachments.join(", ")}</div>}
                  </TableCell>
                  <TableCell className="text-right tabular-nums">
                    {m.attempts} / {m.max_attempts}
                  </TableCell>
                  <TableCell className="whitespace-nowrap">{formatNlDate(m.next_attempt_at)}</TableCell>
                  <TableCell className="whitespace-nowrap">{formatNlDate(m.created_at)}</TableCell>
                  <TableCell className="text-right">
                    {m.status !== "sent" && m.status !== "sending" && (
                      <Button variant="outline" size="sm" disabled={retrying === m.id} onClick={() => void handleRetry(m.id)}>
                        {retrying === m.id ? <Spinner label="Bezig" /> : <RotateCwIcon aria-hidden="true" />}
                        Opnieuw proberen
                      </Button>
                    )}
                  </TableCell>
                </TableRow>
              ))
            )}
          </TableBody>
        </Table>
      </div>
    </div>
  );
}
