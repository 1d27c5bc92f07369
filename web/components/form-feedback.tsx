import CircleAlertIcon from "lucide-react/icons/circle-alert";
import CircleCheckIcon from "lucide-react/icons/circle-check";
import InfoIcon from "lucide-react/icons/info";

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
 */
export function FormFeedback({ feedback, className }: { feedback: Feedback | null; className?: string }) {
  const Icon = feedback ? icons[feedback.tone] : null;
  return (
    <div aria-live="polite" aria-atomic="true" className={cn(!feedback && "contents", className)}>
      {feedback && Icon && (
        <Alert
          variant={variants[feedback.tone]}
          role={feedback.tone === "error" ? "alert" : undefined}
          data-tone={feedback.tone}
        >
          <Icon aria-hidden="true" />
          <AlertDescription>{feedback.text}</AlertDescription>
        </Alert>
      )}
    </div>
  );
}
