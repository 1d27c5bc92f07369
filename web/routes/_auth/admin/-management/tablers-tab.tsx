import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import PencilIcon from "lucide-react/icons/pencil";
import PlusIcon from "lucide-react/icons/plus";
import Trash2Icon from "lucide-react/icons/trash-2";
import * as React from "react";

import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Label } from "@/components/ui/label";
import { Modal } from "@/components/ui/modal";
import { useSnackbar } from "@/components/ui/snackbar";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useTrpc } from "@/lib/auth";
import { errorText } from "@/lib/errors";
import { useAppForm, useFormFeedback } from "@/lib/form";
import { liveCheck } from "@/lib/form-errors";
import { requiredMessage } from "#src/core/public-form-rules";
import { LoadError, LoadingState } from "../-components/admin-page";
import { DeliveryListButton } from "./delivery";
import { SellerLinkButton } from "./seller-link";
import { formatNlDate, type Tabler, useOrdersCache } from "./shared";

// docs/product.md §2 Management Dashboard, tab Tablers; §5 tabler name required (trimmed); §8 messages; docs/decisions/023:
// each tabler's delivery list; docs/decisions/070: each tabler's own order link.

export function TablersTab({ onError }: { onError: (message: string) => void }) {
  const trpc = useTrpc();
  const queryClient = useQueryClient();
  const ordersCache = useOrdersCache();
  const { showSnackbar } = useSnackbar();
  const tablersQuery = useQuery(trpc.tablers.list.queryOptions());
  const [editing, setEditing] = React.useState<Tabler | "new" | null>(null);
  const [deleting, setDeleting] = React.useState<Tabler | null>(null);
  const deleteTabler = useMutation(trpc.tablers.delete.mutationOptions());

  async function handleDelete() {
    if (!deleting) return;
    try {
      await deleteTabler.mutateAsync({ id: deleting.id });
      queryClient.setQueryData(trpc.tablers.list.queryKey(), (old: Tabler[] | undefined) => old?.filter((t) => t.id !== deleting.id));
      // Its orders stay and now show 'Onbekend'.
      ordersCache.update((orders) => orders.map((o) => (o.tabler_id === deleting.id ? { ...o, tabler_id: null, tabler_name: null } : o)));
      showSnackbar("Tabler verwijderd", "success");
    } catch (error) {
      onError(errorText(error, "Failed to delete tabler"));
    }
  }

  if (tablersQuery.isPending) return <LoadingState label="Tablers laden" />;
  if (tablersQuery.isError)
    return (
      <LoadError
        title="Failed to fetch tablers"
        error={tablersQuery.error}
        onRetry={() => void tablersQuery.refetch()}
        retrying={tablersQuery.isFetching}
      />
    );

  const tablers = tablersQuery.data;
  return (
    <div className="grid gap-3">
      <div className="flex justify-end">
        <Button onClick={() => setEditing("new")}>
          <PlusIcon aria-hidden="true" />
          Nieuwe Tabler
        </Button>
      </div>
      <div className="overflow-x-auto rounded-xl border bg-card">
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>Naam</TableHead>
              <TableHead className="hidden sm:table-cell">Aangemaakt</TableHead>
              <TableHead className="hidden sm:table-cell">Bijgewerkt</TableHead>
              <TableHead className="text-right">Acties</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {tablers.length === 0 ? (
              <TableRow>
                <TableCell colSpan={4} className="text-center text-muted-foreground">
                  Nog geen tablers.
                </TableCell>
              </TableRow>
            ) : (
              tablers.map((tabler) => (
                <TableRow key={tabler.id} data-tabler={tabler.name}>
                  <TableCell className="font-medium">
                    {tabler.name}
                    <div className="text-xs font-normal text-muted-foreground sm:hidden">Aangemaakt {formatNlDate(tabler.created_at)}</div>
                    {/* A phone has no room for them beside edit and delete: they go under the name. */}
                    <div className="mt-2 flex flex-wrap gap-2 sm:hidden">
                      <DeliveryListButton of={tabler} className="h-8" />
                      <SellerLinkButton tabler={tabler} className="h-8" />
                    </div>
                  </TableCell>
                  <TableCell className="hidden sm:table-cell">{formatNlDate(tabler.created_at)}</TableCell>
                  <TableCell className="hidden sm:table-cell">{formatNlDate(tabler.updated_at)}</TableCell>
                  <TableCell className="text-right whitespace-nowrap">
                    <DeliveryListButton of={tabler} className="mr-1 hidden h-8 sm:inline-flex" />
                    <SellerLinkButton tabler={tabler} className="mr-1 hidden h-8 sm:inline-flex" />
                    <Button
                      variant="ghost"
                      size="icon"
                      className="size-8"
                      aria-label={`${tabler.name} bewerken`}
                      onClick={() => setEditing(tabler)}
                    >
                      <PencilIcon aria-hidden="true" />
                    </Button>
                    <Button
                      variant="ghost"
                      size="icon"
                      className="size-8 text-destructive hover:bg-destructive/10 hover:text-destructive"
                      aria-label={`${tabler.name} verwijderen`}
                      onClick={() => setDeleting(tabler)}
                    >
                      <Trash2Icon aria-hidden="true" />
                    </Button>
                  </TableCell>
                </TableRow>
              ))
            )}
          </TableBody>
        </Table>
      </div>
      <TablerDialog tabler={editing} onClose={() => setEditing(null)} />
      <ConfirmDialog
        busyLabel="Bezig"
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Tabler verwijderen?"
        message={deleting ? `Weet je zeker dat je tabler ${deleting.name} wilt verwijderen? De bestellingen blijven bewaard.` : undefined}
        confirmText="Verwijderen"
        cancelText="Annuleren"
        destructive
        onConfirm={handleDelete}
      />
    </div>
  );
}

function TablerDialog({ tabler, onClose }: { tabler: Tabler | "new" | null; onClose: () => void }) {
  const isNew = tabler === "new";
  return (
    <Modal
      closeLabel="Sluiten"
      open={tabler !== null}
      onOpenChange={(open) => !open && onClose()}
      title={isNew ? "Nieuwe Tabler" : "Tabler Bewerken"}
    >
      {tabler !== null && <TablerForm key={isNew ? "new" : tabler.id} tabler={isNew ? null : tabler} onDone={onClose} />}
    </Modal>
  );
}

function TablerForm({ tabler, onDone }: { tabler: Tabler | null; onDone: () => void }) {
  const trpc = useTrpc();
  const queryClient = useQueryClient();
  const ordersCache = useOrdersCache();
  const { showSnackbar } = useSnackbar();
  const create = useMutation(trpc.tablers.create.mutationOptions());
  const update = useMutation(trpc.tablers.update.mutationOptions());
  // In the dialog only, beside the name it is about: a page banner as well would show it twice, and
  // stay behind after Annuleren.
  const { feedback, attempt } = useFormFeedback({ asSent: true });
  // The name as the dialog opened on it; a refreshed list does not overwrite what is typed.
  const [defaultValues] = React.useState(() => ({ name: tabler?.name ?? "" }));
  const form = useAppForm({
    defaultValues,
    // Opslaan stays disabled while the name is blank.
    validators: liveCheck(({ value }: { value: { name: string } }) => (value.name.trim() === "" ? requiredMessage("Naam") : undefined)),
    onSubmit: ({ value }) =>
      attempt(
        async () => {
          const name = value.name.trim();
          if (tabler) {
            const result = await update.mutateAsync({ id: tabler.id, name });
            ordersCache.update((orders) => orders.map((o) => (o.tabler_id === tabler.id ? { ...o, tabler_name: result.tabler.name } : o)));
            showSnackbar("Tabler bijgewerkt", "success");
          } else {
            await create.mutateAsync({ name });
            showSnackbar("Tabler toegevoegd", "success");
          }
          await queryClient.invalidateQueries({ queryKey: trpc.tablers.list.queryKey() });
          onDone();
          return null;
        },
        tabler ? "Failed to update tabler" : "Failed to create tabler",
      ),
  });

  return (
    <form.AppForm>
      <form.Form className="grid gap-4" noValidate>
        <div className="grid gap-2">
          <Label htmlFor="tabler-name">Naam *</Label>
          <form.AppField name="name">{(field) => <field.Input id="tabler-name" autoFocus required maxLength={100} />}</form.AppField>
        </div>
        {feedback && (
          <p role="alert" className="text-sm text-destructive">
            {feedback.text}
          </p>
        )}
        <form.Actions onCancel={onDone} submitLabel="Opslaan" busyLabel="Opslaan" cancelLabel="Annuleren" />
      </form.Form>
    </form.AppForm>
  );
}
