import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { createFileRoute } from "@tanstack/react-router";
import PauseIcon from "lucide-react/icons/pause";
import PencilIcon from "lucide-react/icons/pencil";
import PlayIcon from "lucide-react/icons/play";
import * as React from "react";

import { FormActions } from "@/components/form-actions";
import { errorFeedback, type Feedback, FormFeedback } from "@/components/form-feedback";
import { TextField } from "@/components/text-field";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Label } from "@/components/ui/label";
import { Modal } from "@/components/ui/modal";
import { useSnackbar } from "@/components/ui/snackbar";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { Textarea } from "@/components/ui/textarea";
import { useErrorText, useFormatDateTime, useMessages } from "@/i18n/use-messages";
import { useTrpc } from "@/lib/auth";
import { CLUB_SLUG_PATTERN, type ClubView } from "#src/core/club-schemas";
import { AdminPage, LoadError, LoadingState } from "./-components/admin-page";
import { AddDialogButton, type FormDialogControls } from "./-components/form-dialog";

// docs/decisions/071: the platform's screen, for holders of platform.access in the first club (the admin layout's
// guard and the sections' list check the key itself). Every club with its hosts and counts; a new club with its first
// admin invited by mail; suspend and reactivate behind a confirm; a club's hosts.
export const Route = createFileRoute("/_auth/admin/clubs")({
  loader: ({ context: { queryClient, trpc } }) => {
    void queryClient.prefetchQuery(trpc.clubs.list.queryOptions());
  },
  component: ClubsPage,
});

/** Hosts as typed: one per line or comma separated, blanks dropped (the server lower-cases and checks each). */
function parseHosts(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((host) => host.trim())
    .filter((host) => host !== "");
}

function ClubsPage() {
  const trpc = useTrpc();
  const t = useMessages();
  const clubs = useQuery(trpc.clubs.list.queryOptions());
  const [hostsOf, setHostsOf] = React.useState<ClubView | null>(null);
  const [toSuspend, setToSuspend] = React.useState<ClubView | null>(null);
  const setStatus = useSetStatus();
  const list = clubs.data?.clubs;

  return (
    <AdminPage
      title={t.clubs.title}
      description={list ? t.clubs.count(list.length) : undefined}
      actions={
        <AddDialogButton label={t.clubs.newClub} description={t.clubs.form.description}>
          {(controls) => <NewClubForm controls={controls} />}
        </AddDialogButton>
      }
    >
      {clubs.isPending ? (
        <LoadingState label={t.clubs.loading} />
      ) : clubs.isError ? (
        <LoadError title={t.clubs.fetchFailed} error={clubs.error} onRetry={() => void clubs.refetch()} retrying={clubs.isFetching} />
      ) : (
        <ClubsTable
          clubs={clubs.data.clubs}
          onEditHosts={setHostsOf}
          onSuspend={setToSuspend}
          onReactivate={(club) => void setStatus(club, "active")}
        />
      )}
      <HostsDialog club={hostsOf} onClose={() => setHostsOf(null)} />
      <ConfirmDialog
        open={toSuspend !== null}
        onOpenChange={(open) => !open && setToSuspend(null)}
        title={toSuspend ? t.clubs.suspendConfirm.title(toSuspend.name) : ""}
        message={t.clubs.suspendConfirm.text}
        confirmText={t.clubs.suspendConfirm.confirm}
        cancelText={t.common.cancel}
        busyLabel={t.common.working}
        destructive
        onConfirm={async () => {
          if (toSuspend && (await setStatus(toSuspend, "suspended"))) setToSuspend(null);
        }}
      />
    </AdminPage>
  );
}

/** Suspends or reactivates a club; says how it went in the snackbar. Resolves to whether it worked. */
function useSetStatus() {
  const trpc = useTrpc();
  const t = useMessages();
  const queryClient = useQueryClient();
  const { showSnackbar } = useSnackbar();
  const errorText = useErrorText();
  const update = useMutation(trpc.clubs.update.mutationOptions());
  return async (club: ClubView, status: ClubView["status"]) => {
    try {
      await update.mutateAsync({ id: club.id, status });
      showSnackbar(status === "suspended" ? t.clubs.suspended(club.name) : t.clubs.reactivated(club.name), "success");
      await queryClient.invalidateQueries({ queryKey: trpc.clubs.list.queryKey() });
      return true;
    } catch (error) {
      showSnackbar(errorText(error, t.clubs.updateFailed), "error");
      return false;
    }
  };
}

function ClubsTable({
  clubs,
  onEditHosts,
  onSuspend,
  onReactivate,
}: {
  clubs: ClubView[];
  onEditHosts: (club: ClubView) => void;
  onSuspend: (club: ClubView) => void;
  onReactivate: (club: ClubView) => void;
}) {
  const t = useMessages();
  const formatDateTime = useFormatDateTime();
  const columns = t.clubs.columns;
  return (
    <div className="rounded-xl border bg-card">
      <Table aria-label={t.clubs.listLabel} scrollLabel={t.clubs.listLabel}>
        <TableHeader>
          <TableRow>
            <TableHead>{columns.name}</TableHead>
            <TableHead>{columns.slug}</TableHead>
            <TableHead>{columns.hosts}</TableHead>
            <TableHead>{columns.status}</TableHead>
            <TableHead className="text-right">{columns.orders}</TableHead>
            <TableHead className="text-right">{columns.users}</TableHead>
            <TableHead>{columns.created}</TableHead>
            <TableHead>
              <span className="sr-only">{t.common.actions}</span>
            </TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {clubs.map((club, index) => {
            // The list comes ordered by id; the first is the club that runs the deployment and is never suspended.
            const first = index === 0;
            return (
              <TableRow key={club.id} data-club={club.slug}>
                <TableCell className="font-medium whitespace-normal">
                  {club.name}
                  {first && (
                    <Badge variant="secondary" className="ml-2">
                      {t.clubs.firstClub}
                    </Badge>
                  )}
                </TableCell>
                <TableCell className="font-mono text-sm">{club.slug}</TableCell>
                <TableCell className="text-sm">
                  {club.hosts.length > 0 ? (
                    club.hosts.map((host) => <div key={host}>{host}</div>)
                  ) : (
                    <span className="whitespace-normal text-muted-foreground">{t.clubs.noHosts}</span>
                  )}
                </TableCell>
                <TableCell>
                  <Badge variant={club.status === "active" ? "success" : "destructive"}>{t.clubs.status[club.status]}</Badge>
                </TableCell>
                <TableCell className="text-right tabular-nums">{club.orders}</TableCell>
                <TableCell className="text-right tabular-nums">{club.users}</TableCell>
                <TableCell className="text-sm whitespace-nowrap">{formatDateTime(club.created_at)}</TableCell>
                <TableCell>
                  <div className="flex flex-col items-stretch gap-1.5">
                    <Button variant="outline" size="sm" aria-label={t.clubs.editHostsOf(club.name)} onClick={() => onEditHosts(club)}>
                      <PencilIcon aria-hidden="true" />
                      {t.clubs.editHosts}
                    </Button>
                    {first ? null : club.status === "active" ? (
                      <Button variant="outline" size="sm" aria-label={t.clubs.suspendOf(club.name)} onClick={() => onSuspend(club)}>
                        <PauseIcon aria-hidden="true" />
                        {t.clubs.suspend}
                      </Button>
                    ) : (
                      <Button variant="outline" size="sm" aria-label={t.clubs.reactivateOf(club.name)} onClick={() => onReactivate(club)}>
                        <PlayIcon aria-hidden="true" />
                        {t.clubs.reactivate}
                      </Button>
                    )}
                  </div>
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </div>
  );
}

function NewClubForm({ controls }: { controls: FormDialogControls }) {
  const trpc = useTrpc();
  const t = useMessages();
  const queryClient = useQueryClient();
  const { showSnackbar } = useSnackbar();
  const errorText = useErrorText();
  const create = useMutation(trpc.clubs.create.mutationOptions());
  const [fields, setFields] = React.useState({ name: "", slug: "", hosts: "", admin_email: "" });
  const [feedback, setFeedback] = React.useState<Feedback | null>(null);
  const [errors, setErrors] = React.useState<{ name?: string; slug?: string; admin_email?: string }>({});
  const set = (name: keyof typeof fields) => (event: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    setFields((previous) => ({ ...previous, [name]: event.target.value }));
    setErrors(({ [name as keyof typeof errors]: _fixed, ...others }) => others);
  };

  async function handleSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFeedback(null);
    const found = {
      ...(fields.name.trim() === "" ? { name: t.clubs.form.nameRequired } : {}),
      ...(CLUB_SLUG_PATTERN.test(fields.slug.trim()) ? {} : { slug: t.clubs.form.slugInvalid }),
      ...(/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(fields.admin_email.trim()) ? {} : { admin_email: t.clubs.form.emailInvalid }),
    };
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    controls.setBusy(true);
    try {
      const name = fields.name.trim();
      await create.mutateAsync({ name, slug: fields.slug.trim(), hosts: parseHosts(fields.hosts), admin_email: fields.admin_email.trim() });
      await queryClient.invalidateQueries({ queryKey: trpc.clubs.list.queryKey() });
      showSnackbar(t.clubs.form.created(name), "success");
      controls.close();
    } catch (error) {
      setFeedback(errorFeedback(errorText(error, t.clubs.form.failed)));
    } finally {
      controls.setBusy(false);
    }
  }

  return (
    <form className="grid gap-4" noValidate aria-label={t.clubs.form.title} onSubmit={(event) => void handleSubmit(event)}>
      <FormFeedback feedback={feedback} />
      <TextField
        label={t.clubs.form.name}
        name="name"
        required
        autoFocus
        autoComplete="off"
        maxLength={100}
        value={fields.name}
        onChange={set("name")}
        error={errors.name}
      />
      <TextField
        label={t.clubs.form.slug}
        name="slug"
        required
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        maxLength={40}
        hint={t.clubs.form.slugHint}
        value={fields.slug}
        onChange={set("slug")}
        error={errors.slug}
      />
      <HostsField value={fields.hosts} onChange={set("hosts")} />
      <TextField
        label={t.clubs.form.adminEmail}
        name="admin_email"
        type="email"
        required
        autoComplete="off"
        value={fields.admin_email}
        onChange={set("admin_email")}
        error={errors.admin_email}
      />
      <FormActions
        onCancel={controls.close}
        busy={create.isPending}
        submitLabel={t.clubs.form.submit}
        busyLabel={t.clubs.form.creating}
        cancelLabel={t.common.cancel}
      />
    </form>
  );
}

function HostsField({ value, onChange }: { value: string; onChange: (event: React.ChangeEvent<HTMLTextAreaElement>) => void }) {
  const t = useMessages();
  const id = React.useId();
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{t.clubs.form.hosts}</Label>
      <Textarea
        id={id}
        name="hosts"
        rows={3}
        autoCapitalize="none"
        spellCheck={false}
        aria-describedby={`${id}-hint`}
        value={value}
        onChange={onChange}
      />
      <p id={`${id}-hint`} className="text-sm text-muted-foreground">
        {t.clubs.form.hostsHint}
      </p>
    </div>
  );
}

function HostsDialog({ club, onClose }: { club: ClubView | null; onClose: () => void }) {
  const t = useMessages();
  return (
    <Modal
      closeLabel={t.common.close}
      open={club !== null}
      onOpenChange={(open) => !open && onClose()}
      title={club ? t.clubs.hostsDialog.title(club.name) : ""}
      description={t.clubs.hostsDialog.description}
    >
      {club && <HostsForm key={club.id} club={club} onDone={onClose} />}
    </Modal>
  );
}

function HostsForm({ club, onDone }: { club: ClubView; onDone: () => void }) {
  const trpc = useTrpc();
  const t = useMessages();
  const queryClient = useQueryClient();
  const { showSnackbar } = useSnackbar();
  const errorText = useErrorText();
  const update = useMutation(trpc.clubs.update.mutationOptions());
  const [hosts, setHosts] = React.useState(club.hosts.join("\n"));
  const [feedback, setFeedback] = React.useState<Feedback | null>(null);

  async function handleSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFeedback(null);
    try {
      await update.mutateAsync({ id: club.id, hosts: parseHosts(hosts) });
      await queryClient.invalidateQueries({ queryKey: trpc.clubs.list.queryKey() });
      showSnackbar(t.clubs.hostsDialog.saved(club.name), "success");
      onDone();
    } catch (error) {
      setFeedback(errorFeedback(errorText(error, t.clubs.hostsDialog.failed)));
    }
  }

  return (
    <form
      className="grid gap-4"
      noValidate
      aria-label={t.clubs.hostsDialog.title(club.name)}
      onSubmit={(event) => void handleSubmit(event)}
    >
      <FormFeedback feedback={feedback} />
      <HostsField value={hosts} onChange={(event) => setHosts(event.target.value)} />
      <FormActions
        onCancel={onDone}
        busy={update.isPending}
        submitLabel={t.common.save}
        busyLabel={t.common.working}
        cancelLabel={t.common.cancel}
      />
    </form>
  );
}
