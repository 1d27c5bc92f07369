import CircleAlertIcon from "lucide-react/icons/circle-alert";
import CircleCheckIcon from "lucide-react/icons/circle-check";
import InfoIcon from "lucide-react/icons/info";
import * as React from "react";

import { Alert, AlertDescription } from "@/components/ui/alert";
import { cn } from "@/lib/utils";

export type Feedback = { tone: "error" | "success" | "info"; text: string };

export const errorFeedback = (text: string): Feedback => ({ tone: "error", text });
export const successFeedback = (text: string): Feedback => ({ tone: "success", text });

const variants = { error: "destructive", success: "success", info: "info" } as const;
const icons = { error: CircleAlertIcon, success: CircleCheckIcon, info: InfoIcon } as const;

/**
 * The outcome of a form: errors in an error alert (role=alert, announced at once), successes in a
 * polite live region that stays mounted so screen readers announce the text put into it.
 * `focusOnShow` moves focus to the message, for outcomes that replace the form it came from.
 */
export function FormFeedback({
  feedback,
  className,
  focusOnShow = false,
}: {
  feedback: Feedback | null;
  className?: string;
  focusOnShow?: boolean;
}) {
  const alertRef = React.useRef<HTMLDivElement>(null);
  const text = feedback?.text;
  React.useEffect(() => {
    if (focusOnShow && text) alertRef.current?.focus();
  }, [focusOnShow, text]);

  const Icon = feedback ? icons[feedback.tone] : null;
  return (
    <div aria-live="polite" aria-atomic="true" className={cn("empty:hidden", className)}>
      {feedback && Icon && (
        <Alert
          ref={alertRef}
          tabIndex={focusOnShow ? -1 : undefined}
          variant={variants[feedback.tone]}
          role={feedback.tone === "error" ? "alert" : undefined}
          data-tone={feedback.tone}
          className="outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
        >
          <Icon aria-hidden="true" />
          <AlertDescription>{feedback.text}</AlertDescription>
        </Alert>
      )}
    </div>
  );
}
