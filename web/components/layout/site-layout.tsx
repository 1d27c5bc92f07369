import type * as React from "react";

import { CONTENT_COLUMN } from "@/components/layout/content-column";
import { SiteFooter } from "@/components/layout/site-footer";
import { SiteHeader } from "@/components/layout/site-header";
import { cn } from "@/lib/utils";

// docs/product.md §2 "Layout": a full-height column with the top bar, the main area and the footer. The SPA and
// the prerendered pages' entry each pass their own sign-in controls.
export function SiteLayout({ children, authControls }: { children: React.ReactNode; authControls: React.ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only rounded-md bg-background px-4 py-2 text-sm font-medium text-foreground shadow-lg focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:z-[60] focus:ring-[3px] focus:ring-ring/50"
      >
        Naar de inhoud
      </a>
      <SiteHeader authControls={authControls} />
      <main id="main" tabIndex={-1} className="flex w-full flex-1 flex-col outline-none">
        {children}
      </main>
      <SiteFooter />
    </div>
  );
}

/** The content of a page, in the page column. */
export function PageContainer({ className, ...props }: React.ComponentProps<"div">) {
  return <div data-slot="page-container" className={cn(CONTENT_COLUMN, "py-8 sm:py-12", className)} {...props} />;
}
