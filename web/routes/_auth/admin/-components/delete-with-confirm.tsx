import Trash2Icon from "lucide-react/icons/trash-2";
import * as React from "react";

import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Tooltip, TooltipContent, TooltipTrigger } from "@/components/ui/tooltip";
import { useMessages } from "@/i18n/use-messages";
import { cn } from "@/lib/utils";

/** The admin screens' red trash icon that asks before it deletes (docs/product.md §2 shared confirm dialog). */
export function DeleteWithConfirm({
  label,
  tooltip,
  title,
  message,
  className,
  onConfirm,
}: {
  /** Accessible name of the icon button, e.g. 'Delete group Helpers'. */
  label: string;
  tooltip: string;
  title: string;
  message: string;
  className?: string;
  onConfirm: () => Promise<void>;
}) {
  const [confirming, setConfirming] = React.useState(false);
  const t = useMessages();
  return (
    <>
      <Tooltip>
        <TooltipTrigger asChild>
          <Button
            variant="ghost"
            size="icon"
            className={cn("size-8 text-destructive hover:bg-destructive/10 hover:text-destructive", className)}
            aria-label={label}
            onClick={() => setConfirming(true)}
          >
            <Trash2Icon aria-hidden="true" />
          </Button>
        </TooltipTrigger>
        <TooltipContent>{tooltip}</TooltipContent>
      </Tooltip>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={title}
        message={message}
        confirmText={t.common.delete}
        cancelText={t.common.cancel}
        busyLabel={t.common.working}
        destructive
        onConfirm={onConfirm}
      />
    </>
  );
}
