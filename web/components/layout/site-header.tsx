import GiftIcon from "lucide-react/icons/gift";
import type * as React from "react";

import { CONTENT_COLUMN } from "@/components/layout/content-column";
import { useSiteIdentity } from "@/lib/site";
import { cn } from "@/lib/utils";

/** The top bar: the campaign's name linking home, and the sign-in controls the caller passes. */
// On a phone the club name wraps at a fixed width, so the bar keeps its height when the sign-in
// controls appear after hydration (no layout shift).
export function SiteHeader({ authControls }: { authControls: React.ReactNode }) {
  const site = useSiteIdentity();
  return (
    <header data-slot="site-header" className="sticky top-0 z-40 bg-header text-header-foreground shadow-md">
      <div className={cn(CONTENT_COLUMN, "flex min-h-14 items-center justify-between gap-4 py-2 sm:min-h-16")}>
        <a
          href="/"
          className="group flex min-w-0 items-center gap-2.5 rounded-md outline-none focus-visible:ring-[3px] focus-visible:ring-white/60"
        >
          <span className="flex size-9 shrink-0 items-center justify-center rounded-full bg-white/15">
            <GiftIcon aria-hidden="true" className="size-5" />
          </span>
          <span className="flex min-w-0 flex-col leading-tight sm:flex-row sm:items-baseline sm:gap-2">
            <span className="text-lg font-bold tracking-tight group-hover:underline sm:text-xl">Kerstactie</span>
            <span className="line-clamp-2 max-w-36 text-xs text-header-foreground/85 sm:line-clamp-1 sm:max-w-none sm:text-base">
              {site.clubName}
            </span>
          </span>
        </a>
        {authControls}
      </div>
    </header>
  );
}
