import CircleAlertIcon from "lucide-react/icons/circle-alert";
import XIcon from "lucide-react/icons/x";
import * as React from "react";

import { Alert, AlertDescription } from "@/components/ui/alert";
import { useMessages } from "@/i18n/use-messages";

/** An error alert on the page with a close button; it takes focus when it appears. */
export function DismissibleErrorAlert({ message, onDismiss }: { message: string; onDismiss: () => void }) {
  const ref = React.useRef<HTMLDivElement>(null);
  const t = useMessages();
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new message takes the focus again
  React.useEffect(() => {
    ref.current?.focus();
  }, [message]);
  return (
    <Alert ref={ref} tabIndex={-1} variant="destructive" className="pr-12 outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50">
      <CircleAlertIcon aria-hidden="true" />
      <AlertDescription className="text-destructive">{message}</AlertDescription>
      <button
        type="button"
        onClick={onDismiss}
        aria-label={t.shell.dismiss}
        className="absolute top-2 right-2 inline-flex size-8 items-center justify-center rounded-md opacity-70 outline-none hover:bg-destructive/10 hover:opacity-100 focus-visible:ring-[3px] focus-visible:ring-ring/50"
      >
        <XIcon aria-hidden="true" className="size-4" />
      </button>
    </Alert>
  );
}
