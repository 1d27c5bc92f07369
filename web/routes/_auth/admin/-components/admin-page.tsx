import CircleAlertIcon from "lucide-react/icons/circle-alert";
import RefreshCwIcon from "lucide-react/icons/refresh-cw";
import type * as React from "react";

import { PageContainer } from "@/components/layout/site-layout";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { translateRefusal } from "@/i18n/server-errors";
import { useLocale, useMessages } from "@/i18n/use-messages";
import { serverRefusal } from "@/lib/errors";
import { cn } from "@/lib/utils";

// The frame every admin sub-page shares: a title row with the page's main action, then the content.

export function AdminPage({
  title,
  description,
  actions,
  className,
  children,
}: {
  title: string;
  description?: React.ReactNode;
  actions?: React.ReactNode;
  className?: string;
  children: React.ReactNode;
}) {
  return (
    <PageContainer className={cn("flex flex-col gap-6 sm:py-10", className)}>
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="grid gap-1">
          <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{title}</h1>
          {description && <p className="text-sm text-muted-foreground">{description}</p>}
        </div>
        {actions && <div className="flex flex-wrap gap-2">{actions}</div>}
      </div>
      {children}
    </PageContainer>
  );
}

/** Shown while a list loads for the first time. */
export function LoadingState({ label }: { label: string }) {
  return (
    <div className="flex min-h-48 items-center justify-center rounded-xl border bg-card">
      <Spinner className="size-8 text-primary" label={label} />
    </div>
  );
}

/**
 * A list that could not be loaded: the screen's text (docs/product.md §8, e.g. 'Failed to fetch users'), the
 * server's own text under it when it sent one, and a retry.
 */
export function LoadError({
  title,
  error,
  onRetry,
  retrying = false,
}: {
  title: string;
  error: unknown;
  onRetry: () => void;
  retrying?: boolean;
}) {
  const t = useMessages();
  const locale = useLocale();
  const refusal = serverRefusal(error);
  const detail = refusal === null ? null : translateRefusal(refusal, locale);
  return (
    <Alert variant="destructive">
      <CircleAlertIcon aria-hidden="true" />
      <AlertTitle>{title}</AlertTitle>
      <AlertDescription>
        {detail && detail !== title && <p>{detail}</p>}
        <Button variant="outline" size="sm" className="mt-2" onClick={onRetry} disabled={retrying}>
          {retrying ? <Spinner label={t.shell.retrying} /> : <RefreshCwIcon aria-hidden="true" />}
          {t.common.retry}
        </Button>
      </AlertDescription>
    </Alert>
  );
}
