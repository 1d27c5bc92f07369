import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { createFileRoute, useNavigate } from "@tanstack/react-router";
import * as React from "react";
import * as z from "zod";

import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { NativeSelect } from "@/components/ui/native-select";
import { Spinner } from "@/components/ui/spinner";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useFormatDateTime, useMessages } from "@/i18n/use-messages";
import { useTrpc } from "@/lib/auth";
import type { RouterOutputs } from "@/lib/trpc";
import { AUDIT_ACTIONS } from "#src/features/audit/audit-actions";
import { AdminPage, LoadError, LoadingState } from "./-components/admin-page";

// docs/decisions/009: the audit log — who did what, when and from where — with filters and server-side paging.
// Filters and page live in the URL, so a reload or Back keeps them.

const PER_PAGE = 50;
const ACTOR_DEBOUNCE_MS = 300;

const auditSearchSchema = z.object({
  actor: z.string().max(64).optional().catch(undefined),
  action: z.enum(AUDIT_ACTIONS).optional().catch(undefined),
  from: z.iso.date().optional().catch(undefined),
  to: z.iso.date().optional().catch(undefined),
  page: z.number().int().min(1).optional().catch(undefined),
});
type AuditSearch = z.infer<typeof auditSearchSchema>;
type AuditEntry = RouterOutputs["audit"]["list"]["entries"][number];

export const Route = createFileRoute("/_auth/admin/audit")({
  validateSearch: (search) => auditSearchSchema.parse(search),
  component: AuditLogPage,
});

/** The query the server gets: only the filters that are set. */
function toQuery(search: AuditSearch) {
  return {
    ...(search.actor ? { actor: search.actor } : {}),
    ...(search.action ? { action: search.action } : {}),
    ...(search.from ? { from: search.from } : {}),
    ...(search.to ? { to: search.to } : {}),
    page: String(search.page ?? 1),
    per_page: String(PER_PAGE),
  };
}

/** 'status: active → inactive, password: changed' from the details' old → new pairs. */
function describeDetails(details: Record<string, unknown>): string {
  const text = (value: unknown) =>
    value === null || value === undefined || value === "" ? "–" : typeof value === "object" ? JSON.stringify(value) : String(value);
  return Object.entries(details)
    .map(([key, value]) =>
      Array.isArray(value) && value.length === 2 ? `${key}: ${text(value[0])} → ${text(value[1])}` : `${key}: ${text(value)}`,
    )
    .join(", ");
}

function AuditLogPage() {
  const trpc = useTrpc();
  const t = useMessages();
  const formatDateTime = useFormatDateTime();
  const search = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  const auditQuery = useQuery({ ...trpc.audit.list.queryOptions(toQuery(search)), placeholderData: keepPreviousData });
  const [actor, setActor] = React.useState(search.actor ?? "");

  function setSearch(changes: Partial<AuditSearch>) {
    // Any new filter starts again at the first page.
    void navigate({ search: (current) => ({ ...current, ...changes, page: changes.page }), replace: changes.page === undefined });
  }

  // The name filter follows typing after a short pause, not on every key.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only typing starts a search; a URL change (Back) must not restart the timer
  React.useEffect(() => {
    const trimmed = actor.trim();
    if (trimmed === (search.actor ?? "")) return;
    const timer = setTimeout(() => setSearch({ actor: trimmed || undefined }), ACTOR_DEBOUNCE_MS);
    return () => clearTimeout(timer);
    // Only typing starts a new search; the URL's own changes (Back) do not restart the timer.
  }, [actor]);

  const data = auditQuery.data;
  const page = search.page ?? 1;
  const pageCount = data ? Math.max(1, Math.ceil(data.total / data.per_page)) : 1;

  return (
    <AdminPage title={t.audit.title} description={data ? t.audit.entries(data.total) : undefined}>
      {/* biome-ignore lint/a11y/useSemanticElements: role=search on the form is the landmark every browser and screen reader knows; <search> is recent */}
      <form className="flex flex-wrap items-end gap-3" role="search" aria-label={t.audit.filterLabel} onSubmit={(e) => e.preventDefault()}>
        <div className="grid min-w-40 flex-1 gap-1">
          <Label htmlFor="audit-actor">{t.audit.who}</Label>
          <Input
            id="audit-actor"
            type="search"
            placeholder={t.audit.usernamePlaceholder}
            value={actor}
            onChange={(e) => setActor(e.target.value)}
          />
        </div>
        <div className="grid gap-1">
          <Label htmlFor="audit-action">{t.audit.action}</Label>
          <NativeSelect
            id="audit-action"
            value={search.action ?? ""}
            onChange={(e) => setSearch({ action: (e.target.value || undefined) as AuditSearch["action"] })}
          >
            <option value="">{t.audit.allActions}</option>
            {AUDIT_ACTIONS.map((action) => (
              <option key={action} value={action}>
                {action}
              </option>
            ))}
          </NativeSelect>
        </div>
        <div className="grid gap-1">
          <Label htmlFor="audit-from">{t.audit.from}</Label>
          <Input
            id="audit-from"
            type="date"
            className="w-40"
            value={search.from ?? ""}
            onChange={(e) => setSearch({ from: e.target.value || undefined })}
          />
        </div>
        <div className="grid gap-1">
          <Label htmlFor="audit-to">{t.audit.to}</Label>
          <Input
            id="audit-to"
            type="date"
            className="w-40"
            value={search.to ?? ""}
            onChange={(e) => setSearch({ to: e.target.value || undefined })}
          />
        </div>
      </form>

      {auditQuery.isPending ? (
        <LoadingState label={t.audit.loading} />
      ) : auditQuery.isError ? (
        <LoadError
          title={t.audit.loadFailed}
          error={auditQuery.error}
          onRetry={() => void auditQuery.refetch()}
          retrying={auditQuery.isFetching}
        />
      ) : (
        <>
          <div className="flex flex-wrap items-center justify-between gap-2 text-sm text-muted-foreground">
            <span>
              {t.audit.page(Math.min(page, pageCount), pageCount)}
              {auditQuery.isFetching && <Spinner className="ml-2 inline size-3" label={t.audit.updating} />}
            </span>
            <span className="flex gap-2">
              <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => setSearch({ ...search, page: page - 1 })}>
                {t.audit.previous}
              </Button>
              <Button variant="outline" size="sm" disabled={page >= pageCount} onClick={() => setSearch({ ...search, page: page + 1 })}>
                {t.audit.next}
              </Button>
            </span>
          </div>
          {data!.entries.length === 0 ? (
            <p className="rounded-xl border bg-card p-6 text-center text-sm text-muted-foreground">{t.audit.empty}</p>
          ) : (
            <div className="rounded-xl border bg-card">
              <Table className="text-[13px]" scrollLabel={t.audit.tableLabel}>
                <TableHeader>
                  <TableRow>
                    <TableHead>{t.audit.when}</TableHead>
                    <TableHead>{t.audit.who}</TableHead>
                    <TableHead>{t.audit.action}</TableHead>
                    <TableHead>{t.audit.target}</TableHead>
                    <TableHead>{t.audit.details}</TableHead>
                    <TableHead>{t.audit.address}</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {data!.entries.map((entry: AuditEntry) => (
                    <TableRow key={entry.id} data-slot="audit-entry">
                      <TableCell className="whitespace-nowrap">{formatDateTime(entry.at)}</TableCell>
                      <TableCell>{entry.actor_username ?? "—"}</TableCell>
                      <TableCell className="font-mono text-xs whitespace-nowrap">{entry.action}</TableCell>
                      <TableCell className="min-w-40 whitespace-normal [overflow-wrap:anywhere]">{entry.target || "—"}</TableCell>
                      <TableCell className="min-w-56 whitespace-normal [overflow-wrap:anywhere] text-muted-foreground">
                        {describeDetails(entry.details) || "—"}
                      </TableCell>
                      <TableCell className="font-mono text-xs whitespace-nowrap">{entry.ip || "—"}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </div>
          )}
        </>
      )}
    </AdminPage>
  );
}
