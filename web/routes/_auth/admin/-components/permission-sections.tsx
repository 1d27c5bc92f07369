import { useMutation } from "@tanstack/react-query";
import LockIcon from "lucide-react/icons/lock";
import * as React from "react";

import { Accordion, AccordionContent, AccordionItem, AccordionTrigger } from "@/components/ui/accordion";
import { Badge } from "@/components/ui/badge";
import { useSnackbar } from "@/components/ui/snackbar";
import { Tooltip, TooltipContent, TooltipTrigger } from "@/components/ui/tooltip";
import { permissionDescription } from "@/i18n/built-in-texts";
import { useErrorText, useLocale, useMessages } from "@/i18n/use-messages";
import { useTrpc } from "@/lib/auth";
import { groupByPrefix } from "@/lib/permission-prefix";
import { useRefreshAdminData } from "./admin-cache";
import { DeleteWithConfirm } from "./delete-with-confirm";
import type { AdminPermission } from "./admin-types";

// docs/product.md §2 Permission Management: permissions grouped by the key prefix before the first dot, in
// collapsible sections (all open at first; a section added later opens too). §5: only deletable
// permissions can be deleted.

export function PermissionSections({ permissions }: { permissions: AdminPermission[] }) {
  const t = useMessages();
  const locale = useLocale();
  const sections = groupByPrefix(permissions);
  const [closed, setClosed] = React.useState<ReadonlySet<string>>(() => new Set());
  const open = sections.map((section) => section.prefix).filter((prefix) => !closed.has(prefix));

  function handleValueChange(value: string[]) {
    const nowOpen = new Set(value);
    setClosed(new Set(sections.map((section) => section.prefix).filter((prefix) => !nowOpen.has(prefix))));
  }

  if (sections.length === 0) {
    return <p className="rounded-xl border bg-card p-6 text-sm text-muted-foreground">{t.permissions.empty}</p>;
  }

  return (
    <Accordion type="multiple" value={open} onValueChange={handleValueChange} className="rounded-xl border bg-card shadow-sm">
      {sections.map((section) => (
        <AccordionItem key={section.prefix} value={section.prefix} data-prefix={section.prefix}>
          <AccordionTrigger className="items-center px-4 hover:no-underline sm:px-6">
            <span className="flex items-center gap-2">
              <span className="font-mono text-base font-semibold">{section.prefix}</span>
              <Badge variant="secondary" className="tabular-nums">
                {section.items.length}
              </Badge>
            </span>
          </AccordionTrigger>
          <AccordionContent className="pb-2">
            <ul className="divide-y border-t">
              {section.items.map((permission) => (
                <li key={permission.id} data-permission={permission.key} className="flex items-center gap-3 px-4 py-2.5 sm:px-6">
                  <div className="grid min-w-0 flex-1 gap-0.5 sm:grid-cols-[minmax(12rem,auto)_1fr] sm:items-center sm:gap-6">
                    <span className="font-mono text-sm font-medium break-all">{permission.key}</span>
                    <span className="text-sm text-muted-foreground">
                      {permission.description ? permissionDescription(permission.key, permission.description, locale) : "–"}
                    </span>
                  </div>
                  {permission.deletable ? (
                    <DeletePermissionButton permission={permission} />
                  ) : (
                    <Tooltip>
                      <TooltipTrigger asChild>
                        <span
                          // biome-ignore lint/a11y/noNoninteractiveTabindex: keyboard users must be able to focus the icon to see its tooltip
                          tabIndex={0}
                          role="img"
                          className="flex size-8 shrink-0 items-center justify-center rounded-md text-muted-foreground outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
                          aria-label={t.permissions.builtInLabel(permission.key)}
                        >
                          <LockIcon aria-hidden="true" className="size-4" />
                        </span>
                      </TooltipTrigger>
                      <TooltipContent>{t.permissions.builtInTooltip}</TooltipContent>
                    </Tooltip>
                  )}
                </li>
              ))}
            </ul>
          </AccordionContent>
        </AccordionItem>
      ))}
    </Accordion>
  );
}

function DeletePermissionButton({ permission }: { permission: AdminPermission }) {
  const trpc = useTrpc();
  const t = useMessages();
  const errorText = useErrorText();
  const refresh = useRefreshAdminData();
  const { showSnackbar } = useSnackbar();
  const deletePermission = useMutation(trpc.permissions.delete.mutationOptions());

  async function handleConfirm() {
    try {
      await deletePermission.mutateAsync({ id: permission.id });
      showSnackbar(t.permissions.deletePermission.deleted, "success");
    } catch (error) {
      showSnackbar(errorText(error, t.permissions.deletePermission.failed), "error");
    }
    // docs/product.md §4: caches are invalidated after permission changes (groups lose the permission too).
    await refresh();
  }

  return (
    <DeleteWithConfirm
      label={t.permissions.deletePermission.label(permission.key)}
      tooltip={t.permissions.deletePermission.tooltip}
      title={t.permissions.deletePermission.title}
      message={t.permissions.deletePermission.message(permission.key)}
      className="shrink-0"
      onConfirm={handleConfirm}
    />
  );
}
