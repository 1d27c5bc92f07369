import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import ChevronLeftIcon from "lucide-react/icons/chevron-left";
import ChevronRightIcon from "lucide-react/icons/chevron-right";
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
import { cn } from "@/lib/utils";
import { LoadError, LoadingState } from "../-components/admin-page";
import { EmailText } from "./email-text";
import { formatCount, formatNlDate, formatNlDay, formatNlTime, type MailMessage } from "./shared";

// docs/decisions/028: every outbox message's state for admins, with a retry, and why mail waits. A
// page of 50 at a time from the server (newest first), with the total and a pager.

const PER_PAGE = 50;

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

/** A counter's badge: 'Mislukt: 0' is good news, so the error colour is kept for failures that exist. */
function counterVariant(status: MailMessage["status"], n: number) {
  return status === "failed" && n === 0 ? "outline" : STATUS_VARIANT[status];
}

export function MailTab({ onError }: { onError: (message: string) => void }) {
  const trpc = useTrpc();
  const queryClient = useQueryClient();
  const { showSnackbar } = useSnackbar();
  const [page, setPage] = React.useState(1);
  // The page on screen stays while the next one loads, instead of a spinner in its place.
  const mailQuery = useQuery({
    ...trpc.mail.list.queryOptions({ page, per_page: PER_PAGE }),
    refetchInterval: 15_000,
    placeholderData: keepPreviousData,
  });
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
      <LoadError
        title="Failed to fetch mail"
        error={mailQuery.error}
        onRetry={() => void mailQuery.refetch()}
        retrying={mailQuery.isFetching}
      />
    );

  const { notice, counts, messages, total } = mailQuery.data;
  const lastPage = Math.max(1, Math.ceil(total / mailQuery.data.per_page));
  const pager = lastPage > 1 && (
    <MailPager page={mailQuery.data.page} pageCount={lastPage} total={total} loading={mailQuery.isPlaceholderData} onPage={setPage} />
  );
  const retryButton = (m: MailMessage) =>
    m.status !== "sent" &&
    m.status !== "sending" && (
      <Button variant="outline" size="sm" disabled={retrying === m.id} onClick={() => void handleRetry(m.id)}>
        {retrying === m.id ? <Spinner label="Bezig" /> : <RotateCwIcon aria-hidden="true" />}
        Opnieuw proberen
      </Button>
    );
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
          <Badge key={status} variant={counterVariant(status, counts[status] ?? 0)}>
            {STATUS_LABELS[status]}: {counts[status] ?? 0}
          </Badge>
        ))}
      </div>
      {pager}
      {/* Every column fits the page column at 1280 px: addresses, subjects, errors and dates wrap. */}
      <div className="hidden rounded-xl border bg-card md:block">
        <Table scrollLabel="Mailberichten">
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
                  {NO_MESSAGES}
                </TableCell>
              </TableRow>
            ) : (
              messages.map((m) => (
                <TableRow key={m.id} data-mail={m.id}>
                  <TableCell className="min-w-36 align-top whitespace-normal">
                    <StatusBadge status={m.status} />
                    <LastError message={m} className="mt-1" />
                  </TableCell>
                  <TableCell className="min-w-44 align-top whitespace-normal">
                    <EmailText address={m.to} />
                  </TableCell>
                  <TableCell className="min-w-44 align-top whitespace-normal">
                    <Subject message={m} />
                  </TableCell>
                  <TableCell className="text-right align-top tabular-nums">
                    <Attempts message={m} />
                  </TableCell>
                  <TableCell className="align-top">
                    <DayAndTime value={m.next_attempt_at} />
                  </TableCell>
                  <TableCell className="align-top">
                    <DayAndTime value={m.created_at} />
                  </TableCell>
                  <TableCell className="text-right align-top">{retryButton(m)}</TableCell>
                </TableRow>
              ))
            )}
          </TableBody>
        </Table>
      </div>
      {/* Phones: a card per message with the same fields, as the orders tab does. */}
      {messages.length === 0 ? (
        <p className="rounded-xl border bg-card p-4 text-center text-sm text-muted-foreground md:hidden">{NO_MESSAGES}</p>
      ) : (
        <ul className="grid gap-3 md:hidden" aria-label="Mailberichten">
          {messages.map((m) => (
            <li key={m.id} data-mail-card={m.id} className="grid gap-2 rounded-xl border bg-card p-4 text-sm">
              <div className="flex flex-wrap items-start justify-between gap-2">
                <StatusBadge status={m.status} />
                {retryButton(m)}
              </div>
              <LastError message={m} />
              <div className="grid gap-0.5">
                <Subject message={m} />
                <span className="text-muted-foreground">
                  Aan: <EmailText address={m.to} />
                </span>
              </div>
              <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-xs text-muted-foreground">
                <dt>Pogingen</dt>
                <dd className="tabular-nums">
                  <Attempts message={m} />
                </dd>
                <dt>Volgende poging</dt>
                <dd>{formatNlDate(m.next_attempt_at)}</dd>
                <dt>Aangemaakt</dt>
                <dd>{formatNlDate(m.created_at)}</dd>
              </dl>
            </li>
          ))}
        </ul>
      )}
      {/* Under the list too, where a reader who scrolled through 50 messages ends up. */}
      {messages.length > 10 && pager}
    </div>
  );
}

/** The number of messages, then previous, 'Pagina X van Y', next. */
function MailPager({
  page,
  pageCount,
  total,
  loading,
  onPage,
}: {
  page: number;
  pageCount: number;
  total: number;
  loading: boolean;
  onPage: (page: number) => void;
}) {
  const shown = Math.min(page, pageCount);
  return (
    <nav aria-label="Pagina's met mailberichten" className="flex flex-wrap items-center justify-between gap-2 text-sm">
      <span className="text-muted-foreground tabular-nums">{`${formatCount(total)} berichten`}</span>
      <div className="flex items-center gap-1">
        <Button variant="outline" size="sm" disabled={shown <= 1 || loading} onClick={() => onPage(shown - 1)}>
          <ChevronLeftIcon aria-hidden="true" />
          Vorige
        </Button>
        <span data-slot="page-status" className="px-2 whitespace-nowrap tabular-nums" aria-live="polite">
          Pagina {formatCount(shown)} van {formatCount(pageCount)}
        </span>
        <Button variant="outline" size="sm" disabled={shown >= pageCount || loading} onClick={() => onPage(shown + 1)}>
          Volgende
          <ChevronRightIcon aria-hidden="true" />
        </Button>
      </div>
    </nav>
  );
}

const NO_MESSAGES = "Geen berichten.";

function StatusBadge({ status }: { status: MailMessage["status"] }) {
  return <Badge variant={STATUS_VARIANT[status]}>{STATUS_LABELS[status]}</Badge>;
}

function LastError({ message, className }: { message: MailMessage; className?: string }) {
  return message.last_error && <div className={cn("text-xs text-destructive wrap-anywhere", className)}>{message.last_error}</div>;
}

function Subject({ message }: { message: MailMessage }) {
  return (
    <div>
      <div className="font-medium">{message.subject}</div>
      {message.attachments.length > 0 && (
        <div className="text-xs text-muted-foreground wrap-anywhere">{message.attachments.join(", ")}</div>
      )}
    </div>
  );
}

function Attempts({ message }: { message: MailMessage }) {
  return (
    <>
      {message.attempts} / {message.max_attempts}
    </>
  );
}

/** A moment on two short lines (day, then time), so the date columns stay narrow. */
function DayAndTime({ value }: { value: string | null }) {
  if (!value) return "–";
  return (
    <>
      <div className="whitespace-nowrap">{formatNlDay(value)}</div>
      <div className="text-xs text-muted-foreground">{formatNlTime(value)}</div>
    </>
  );
}
