import CircleAlertIcon from "lucide-react/icons/circle-alert";
import CircleCheckIcon from "lucide-react/icons/circle-check";
import InfoIcon from "lucide-react/icons/info";
import XIcon from "lucide-react/icons/x";
import * as React from "react";

import { cn } from "@/lib/utils";

// docs/product.md §2 "Shared elements" / §9: one snackbar at the bottom centre, severity info|success|error,
// hidden automatically after 3000 ms. A new message replaces the one on screen.

export type SnackbarSeverity = "info" | "success" | "error";

export const SNACKBAR_AUTO_HIDE_MS = 3000;

type SnackbarMessage = { id: number; message: string; severity: SnackbarSeverity };

type SnackbarContextValue = {
  showSnackbar: (message: string, severity?: SnackbarSeverity) => void;
  hideSnackbar: () => void;
};

const SnackbarContext = React.createContext<SnackbarContextValue | null>(null);

export function useSnackbar(): SnackbarContextValue {
  const context = React.useContext(SnackbarContext);
  if (!context) throw new Error("useSnackbar must be used inside <SnackbarProvider>");
  return context;
}

export function SnackbarProvider({
  children,
  autoHideDuration = SNACKBAR_AUTO_HIDE_MS,
}: {
  children: React.ReactNode;
  autoHideDuration?: number;
}) {
  const [current, setCurrent] = React.useState<SnackbarMessage | null>(null);
  const [paused, setPaused] = React.useState(false);
  const nextId = React.useRef(0);

  const showSnackbar = React.useCallback((message: string, severity: SnackbarSeverity = "info") => {
    nextId.current += 1;
    setCurrent({ id: nextId.current, message, severity });
  }, []);
  const hideSnackbar = React.useCallback(() => setCurrent(null), []);

  // Restarts for every new message; paused while the pointer or focus is on the snackbar so it can
  // be read or closed (WCAG 2.2.1).
  React.useEffect(() => {
    if (!current || paused) return;
    const timer = window.setTimeout(() => setCurrent(null), autoHideDuration);
    return () => window.clearTimeout(timer);
  }, [current, paused, autoHideDuration]);

  const value = React.useMemo(() => ({ showSnackbar, hideSnackbar }), [showSnackbar, hideSnackbar]);

  return (
    <SnackbarContext value={value}>
      {children}
      {/* The live region stays mounted so screen readers announce messages put into it. */}
      <div
        data-slot="snackbar-viewport"
        aria-live="polite"
        aria-atomic="true"
        className="pointer-events-none fixed inset-x-0 bottom-0 z-[100] flex justify-center p-4 pb-[max(1rem,env(safe-area-inset-bottom))]"
      >
        {current && (
          <Snackbar
            key={current.id}
            message={current.message}
            severity={current.severity}
            onClose={hideSnackbar}
            onPause={() => setPaused(true)}
            onResume={() => setPaused(false)}
          />
        )}
      </div>
    </SnackbarContext>
  );
}

const severityStyles: Record<SnackbarSeverity, string> = {
  info: "bg-info text-info-foreground",
  success: "bg-success text-success-foreground",
  error: "bg-destructive text-destructive-foreground",
};

const severityIcons: Record<SnackbarSeverity, typeof InfoIcon> = {
  info: InfoIcon,
  success: CircleCheckIcon,
  error: CircleAlertIcon,
};

function Snackbar({
  message,
  severity,
  onClose,
  onPause,
  onResume,
}: {
  message: string;
  severity: SnackbarSeverity;
  onClose: () => void;
  onPause: () => void;
  onResume: () => void;
}) {
  const Icon = severityIcons[severity];
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: hover and focus within only pause the timer (WCAG 2.2.1), they do nothing themselves
    <div
      data-slot="snackbar"
      data-severity={severity}
      role={severity === "error" ? "alert" : "status"}
      onMouseEnter={onPause}
      onMouseLeave={onResume}
      onFocus={onPause}
      onBlur={onResume}
      className={cn(
        "pointer-events-auto flex w-full max-w-md animate-snackbar-in items-center gap-3 rounded-lg py-2.5 pr-2 pl-4 text-sm font-medium shadow-lg sm:w-auto sm:min-w-72",
        severityStyles[severity],
      )}
    >
      <Icon aria-hidden="true" className="size-5 shrink-0" />
      <p className="flex-1">{message}</p>
      <button
        type="button"
        onClick={onClose}
        aria-label="Close"
        className="inline-flex size-8 shrink-0 items-center justify-center rounded-md opacity-80 transition-opacity outline-none hover:bg-white/15 hover:opacity-100 focus-visible:ring-2 focus-visible:ring-white/80"
      >
        <XIcon aria-hidden="true" className="size-4" />
      </button>
    </div>
  );
}
