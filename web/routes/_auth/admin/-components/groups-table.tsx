import { useMutation } from "@tanstack/react-query";
import LockIcon from "lucide-react/icons/lock";
import ShieldCheckIcon from "lucide-react/icons/shield-check";

import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { useSnackbar } from "@/components/ui/snackbar";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { Tooltip, TooltipContent, TooltipTrigger } from "@/components/ui/tooltip";
import { groupDescription } from "@/i18n/built-in-texts";
import { useErrorText, useLocale, useMessages } from "@/i18n/use-messages";
import { useTrpc } from "@/lib/auth";
import { useRefreshAdminData } from "./admin-cache";
import { DeleteWithConfirm } from "./delete-with-confirm";
import type { AdminGroup } from "./admin-types";

// docs/product.md §2 Group Management: ID, Name, Description, Edit Permissions, Actions (one card per group
// below the md breakpoint). §5: only deletable groups can be deleted; §8: a failed delete is
// reported in an alert ('Failed to delete group').

type GroupsViewProps = {
  groups: AdminGroup[];
  onEditPermissions: (group: AdminGroup) => void;
  onDeleteError: (message: string | null) => void;
};

export function GroupsTable({ groups, onEditPermissions, onDeleteError }: GroupsViewProps) {
  const t = useMessages();
  const locale = useLocale();
  return (
    <div className="hidden overflow-hidden rounded-xl border bg-card shadow-sm md:block">
      <Table aria-label={t.groups.listLabel}>
        <TableHeader className="bg-muted/50">
          <TableRow className="hover:bg-transparent">
            <TableHead className="w-12 pl-4">{t.groups.id}</TableHead>
            <TableHead>{t.common.name}</TableHead>
            <TableHead>{t.common.description}</TableHead>
            <TableHead>{t.groups.editPermissions}</TableHead>
            <TableHead className="pr-4 text-right">{t.common.actions}</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {groups.map((group) => (
            <TableRow key={group.id} data-group={group.name}>
              <TableCell className="pl-4 text-muted-foreground tabular-nums">{group.id}</TableCell>
              <TableCell className="font-medium">{group.name}</TableCell>
              <TableCell className="min-w-48 whitespace-normal text-muted-foreground">
                {group.description ? groupDescription(group.name, group.description, locale) : "–"}
              </TableCell>
              <TableCell>
                <EditPermissionsButton group={group} onClick={() => onEditPermissions(group)} />
              </TableCell>
              <TableCell className="pr-4">
                <div className="flex justify-end">
                  <GroupActions group={group} onDeleteError={onDeleteError} />
                </div>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}

/** The phone layout: one card per group with the same fields and actions as the table. */
export function GroupCards({ groups, onEditPermissions, onDeleteError }: GroupsViewProps) {
  const t = useMessages();
  const locale = useLocale();
  return (
    <ul className="grid gap-3 md:hidden" aria-label={t.groups.listLabel}>
      {groups.map((group) => (
        <li key={group.id} data-group-card={group.name} className="rounded-xl border bg-card p-4 shadow-sm">
          <div className="flex items-baseline justify-between gap-3">
            <span className="font-semibold">{group.name}</span>
            <span className="text-sm text-muted-foreground tabular-nums">{t.groups.idValue(group.id)}</span>
          </div>
          <p className="mt-1 text-sm text-muted-foreground">
            {group.description ? groupDescription(group.name, group.description, locale) : "–"}
          </p>
          <div className="mt-3 flex items-center justify-between gap-2 border-t pt-3">
            <EditPermissionsButton group={group} onClick={() => onEditPermissions(group)} />
            <GroupActions group={group} onDeleteError={onDeleteError} />
          </div>
        </li>
      ))}
    </ul>
  );
}

/**
 * The button's name begins with its visible text (WCAG 2.5.3, axe label-content-name-mismatch), so the
 * permission count sits beside it, not inside.
 */
function EditPermissionsButton({ group, onClick }: { group: AdminGroup; onClick: () => void }) {
  const t = useMessages();
  return (
    <span className="inline-flex items-center gap-1.5">
      <Button variant="outline" size="sm" aria-label={t.groups.editPermissionsOf(group.name)} onClick={onClick}>
        <ShieldCheckIcon aria-hidden="true" />
        {t.groups.editPermissions}
      </Button>
      <Badge variant="secondary" className="tabular-nums">
        <span aria-hidden="true">{group.permissions.length}</span>
        <span className="sr-only">{t.permissions.count(group.permissions.length)}</span>
      </Badge>
    </span>
  );
}

function GroupActions({ group, onDeleteError }: { group: AdminGroup; onDeleteError: (message: string | null) => void }) {
  const t = useMessages();
  if (group.deletable) return <DeleteGroupButton group={group} onError={onDeleteError} />;
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <span
          // biome-ignore lint/a11y/noNoninteractiveTabindex: keyboard users must be able to focus the icon to see its tooltip
          tabIndex={0}
          role="img"
          className="flex size-8 items-center justify-center rounded-md text-muted-foreground outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
          aria-label={t.groups.builtInLabel(group.name)}
        >
          <LockIcon aria-hidden="true" className="size-4" />
        </span>
      </TooltipTrigger>
      <TooltipContent>{t.groups.builtInTooltip}</TooltipContent>
    </Tooltip>
  );
}

function DeleteGroupButton({ group, onError }: { group: AdminGroup; onError: (message: string | null) => void }) {
  const trpc = useTrpc();
  const t = useMessages();
  const errorText = useErrorText();
  const refresh = useRefreshAdminData();
  const { showSnackbar } = useSnackbar();
  const deleteGroup = useMutation(trpc.groups.delete.mutationOptions());

  async function handleConfirm() {
    onError(null);
    try {
      await deleteGroup.mutateAsync({ id: group.id });
      showSnackbar(t.groups.deleteGroup.deleted(group.name), "success");
    } catch (error) {
      onError(errorText(error, t.groups.deleteGroup.failed));
    }
    await refresh();
  }

  return (
    <DeleteWithConfirm
      label={t.groups.deleteGroup.label(group.name)}
      tooltip={t.groups.deleteGroup.tooltip}
      title={t.groups.deleteGroup.title}
      message={t.groups.deleteGroup.message(group.name)}
      onConfirm={handleConfirm}
    />
  );
}
