import type { ErrorComponentProps } from "@tanstack/react-router";
import RefreshCwIcon from "lucide-react/icons/refresh-cw";
import TriangleAlertIcon from "lucide-react/icons/triangle-alert";
import type * as React from "react";

import { Button } from "@/components/ui/button";
import { isChunkLoadError } from "@/lib/chunk-error";

// docs/product.md §8 "Chunk loading": a script chunk that failed to load gets a loading-failure message with
// a reload; anything else gets the default fallback 'Unexpected Application Error!'.
export function ErrorFallback({ error }: Pick<ErrorComponentProps, "error">) {
  if (isChunkLoadError(error)) {
    return (
      <FallbackFrame title="This page could not be loaded">
        <p className="text-muted-foreground">
          A new version of the site may have been deployed, or the connection was interrupted. Reloading the page usually fixes this.
        </p>
        <Button onClick={() => window.location.reload()}>
          <RefreshCwIcon aria-hidden="true" />
          Reload
        </Button>
      </FallbackFrame>
    );
  }

  const message = error instanceof Error ? error.message : String(error);
  return (
    <FallbackFrame title="Unexpected Application Error!">
      {message && (
        <pre className="max-w-full overflow-x-auto rounded-md bg-muted px-4 py-3 text-left text-sm whitespace-pre-wrap text-destructive">
          {message}
        </pre>
      )}
      <Button variant="outline" onClick={() => window.location.assign("/")}>
        Go to Home
      </Button>
    </FallbackFrame>
  );
}

function FallbackFrame({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <div role="alert" className="mx-auto flex w-full max-w-xl flex-1 flex-col items-center justify-center gap-4 px-4 py-16 text-center">
      <TriangleAlertIcon aria-hidden="true" className="size-12 text-destructive" />
      <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
      {children}
    </div>
  );
}
