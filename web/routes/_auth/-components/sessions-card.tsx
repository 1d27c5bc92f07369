import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import MonitorSmartphoneIcon from "lucide-react/icons/monitor-smartphone";
import * as React from "react";

import { errorFeedback, type Feedback, FormFeedback, successFeedback } from "@/components/form-feedback";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { useErrorText, useFormatDateTime, useMessages } from "@/i18n/use-messages";
import { useTrpc } from "@/lib/auth";
import { describeDevice } from "@/lib/device";

// docs/architecture.md §5 the account's sessions: every signed-in device with its address and times, this one marked;
// sign out one other device, or all of them at once.
export function SessionsCard() {
  const trpc = useTrpc();
  const queryClient = useQueryClient();
  const sessionsQuery = useQuery(trpc.account.sessions.queryOptions());
  const revoke = useMutation(trpc.account.revokeSession.mutationOptions());
  const revokeOthers = useMutation(trpc.account.revokeOtherSessions.mutationOptions());
  const t = useMessages();
  const formatDateTime = useFormatDateTime();
  const errorText = useErrorText();
  const [feedback, setFeedback] = React.useState<Feedback | null>(null);
  const [pendingId, setPendingId] = React.useState<string | null>(null);

  async function refresh() {
    await queryClient.invalidateQueries({ queryKey: trpc.account.sessions.queryKey() });
  }

  async function signOut(id: string) {
    setFeedback(null);
    setPendingId(id);
    try {
      await revoke.mutateAsync({ id });
      setFeedback(successFeedback(t.account.sessions.signedOut));
    } catch (error) {
      setFeedback(errorFeedback(errorText(error, t.account.sessions.signOutFailed)));
    } finally {
      setPendingId(null);
      await refresh();
    }
  }

  async function signOutOthers() {
    setFeedback(null);
    try {
      await revokeOthers.mutateAsync();
      setFeedback(successFeedback(t.account.sessions.othersSignedOut));
    } catch (error) {
      setFeedback(errorFeedback(errorText(error, t.account.sessions.othersFailed)));
    } finally {
      await refresh();
    }
  }

  const sessions = sessionsQuery.data?.sessions ?? [];
  const others = sessions.filter((s) => !s.current).length;

  return (
    <Card data-slot="sessions-card">
      <CardHeader>
        <CardTitle>
          <h2 className="text-lg">{t.account.sessions.title}</h2>
        </CardTitle>
        <CardDescription>{t.account.sessions.description}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <FormFeedback feedback={feedback} />
        {sessionsQuery.isPending ? (
          <Spinner className="size-5 text-primary" label={t.account.sessions.loading} />
        ) : sessionsQuery.isError ? (
          <FormFeedback feedback={errorFeedback(errorText(sessionsQuery.error, t.account.sessions.loadFailed))} />
        ) : (
          <ul className="grid gap-3">
            {sessions.map((session) => (
              <li key={session.id} data-slot="session" className="flex flex-wrap items-start justify-between gap-3 rounded-lg border p-3">
                <div className="flex min-w-0 items-start gap-3">
                  <MonitorSmartphoneIcon aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-muted-foreground" />
                  <div className="grid min-w-0 gap-0.5 text-sm">
                    <span className="flex flex-wrap items-center gap-2 font-medium">
                      {describeDevice(session.user_agent, t.account.sessions.device)}
                      {session.current && <Badge variant="secondary">{t.account.sessions.thisDevice}</Badge>}
                    </span>
                    <span className="text-muted-foreground [overflow-wrap:anywhere]">
                      {session.ip || t.account.sessions.unknownAddress}
                    </span>
                    <span className="text-muted-foreground">
                      {t.account.sessions.times(formatDateTime(session.created_at), formatDateTime(session.last_seen_at))}
                    </span>
                  </div>
                </div>
                {!session.current && (
                  <Button
                    variant="outline"
                    size="sm"
                    disabled={pendingId === session.id}
                    aria-label={t.account.sessions.signOutLabel(
                      describeDevice(session.user_agent, t.account.sessions.device),
                      session.ip || t.account.sessions.unknownAddressInline,
                    )}
                    onClick={() => void signOut(session.id)}
                  >
                    {pendingId === session.id && <Spinner label={t.account.sessions.signingOut} />}
                    {t.account.sessions.signOut}
                  </Button>
                )}
              </li>
            ))}
          </ul>
        )}
        {others > 0 && (
          <Button variant="outline" className="justify-self-start" disabled={revokeOthers.isPending} onClick={() => void signOutOthers()}>
            {revokeOthers.isPending && <Spinner label={t.account.sessions.signingOut} />}
            {t.account.sessions.signOutOthers}
          </Button>
        )}
      </CardContent>
    </Card>
  );
}
