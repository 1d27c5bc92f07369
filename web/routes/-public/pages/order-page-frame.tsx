import type * as React from "react";

import { PageContainer } from "@/components/layout/site-layout";
import { useSiteIdentity } from "@/lib/site";
import { NeedsJavaScript } from "../needs-javascript";

/**
 * What the member's order page and a seller's order page (docs/decisions/070) share: the heading 'Kerstpakket
 * Bestellen' over the page's own `intro`, the note for a browser without JavaScript (its first sentence
 * `withoutJavaScript`, then the club's address), and the page's island as `children`.
 */
export function OrderPageFrame({
  intro,
  withoutJavaScript,
  children,
}: {
  intro: React.ReactNode;
  withoutJavaScript: string;
  children: React.ReactNode;
}) {
  const site = useSiteIdentity();
  return (
    <div className="bg-linear-to-b from-accent to-background">
      <PageContainer className="flex max-w-2xl flex-col gap-6">
        <div className="flex flex-col gap-2">
          <h1 className="text-3xl font-extrabold tracking-tight sm:text-4xl">Kerstpakket Bestellen</h1>
          <p className="text-foreground/80">{intro}</p>
        </div>
        <NeedsJavaScript>
          <p className="font-semibold">Het bestelformulier werkt alleen met JavaScript.</p>
          <p>
            {withoutJavaScript}{" "}
            <a className="font-medium [overflow-wrap:anywhere] underline underline-offset-4" href={`mailto:${site.email}`}>
              {site.email}
            </a>
            .
          </p>
        </NeedsJavaScript>
        {children}
      </PageContainer>
    </div>
  );
}
