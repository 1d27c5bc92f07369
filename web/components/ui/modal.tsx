import type * as React from "react";

import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { cn } from "@/lib/utils";

// docs/product.md §2 "Shared elements": a generic modal dialog. Closes on Escape, a click on the backdrop
// and the close button. Controlled: the caller owns `open`.

export type ModalProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Always given for screen readers; `hideTitle` hides it visually. */
  title: React.ReactNode;
  hideTitle?: boolean;
  description?: React.ReactNode;
  children?: React.ReactNode;
  /** Buttons shown under the content, right-aligned. */
  footer?: React.ReactNode;
  showCloseButton?: boolean;
  /** The close button's accessible name, in the screen's language. */
  closeLabel?: string;
  className?: string;
};

export function Modal({
  open,
  onOpenChange,
  title,
  hideTitle = false,
  description,
  children,
  footer,
  showCloseButton = true,
  closeLabel,
  className,
}: ModalProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        data-slot="modal"
        showCloseButton={showCloseButton}
        {...(closeLabel ? { closeLabel } : {})}
        className={className}
        // Without a description Radix warns unless aria-describedby is explicitly undefined.
        {...(description ? {} : { "aria-describedby": undefined })}
      >
        <DialogHeader className={cn(hideTitle && !description && "sr-only")}>
          <DialogTitle className={cn(hideTitle && "sr-only")}>{title}</DialogTitle>
          {description && <DialogDescription>{description}</DialogDescription>}
        </DialogHeader>
        {children}
        {footer && <DialogFooter>{footer}</DialogFooter>}
      </DialogContent>
    </Dialog>
  );
}
