import ArrowLeftIcon from "lucide-react/icons/arrow-left";
import type * as React from "react";

import { PageContainer } from "@/components/layout/site-layout";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/utils";

/**
 * The frame of the info pages (docs/product.md §2 "Info pages"): a title band, the content column and the
 * 'Terug naar kerstactie' button to the landing page.
 */
export function InfoPage({
  title,
  intro,
  children,
  className,
}: {
  title: string;
  intro?: React.ReactNode;
  children: React.ReactNode;
  className?: string;
}) {
  return (
    <>
      <div className="border-b bg-linear-to-b from-accent to-background">
        <PageContainer className="flex flex-col gap-4 pt-6 pb-8 sm:pt-8 sm:pb-10">
          <Button asChild variant="ghost" size="sm" className="-ml-3 self-start text-primary hover:text-primary">
            <a href="/">
              <ArrowLeftIcon aria-hidden="true" />
              Terug naar kerstactie
            </a>
          </Button>
          <h1 className="text-3xl font-extrabold tracking-tight text-balance sm:text-4xl">{title}</h1>
          {intro && <div className="max-w-2xl text-lg text-pretty text-foreground/80">{intro}</div>}
        </PageContainer>
      </div>
      <PageContainer className={cn("flex flex-col gap-10", className)}>{children}</PageContainer>
    </>
  );
}

/** A titled block of an info page. */
export function InfoSection({
  id,
  title,
  icon,
  children,
  className,
}: {
  id?: string;
  title: string;
  icon?: React.ReactNode;
  children: React.ReactNode;
  className?: string;
}) {
  const headingId = id ? `${id}-title` : undefined;
  return (
    <section id={id} aria-labelledby={headingId} className={cn("flex max-w-3xl flex-col gap-3", className)}>
      <h2 id={headingId} className="flex items-center gap-2.5 text-xl font-bold tracking-tight sm:text-2xl">
        {icon && (
          <span
            aria-hidden="true"
            className="flex size-9 shrink-0 items-center justify-center rounded-full bg-accent text-primary [&_svg]:size-5"
          >
            {icon}
          </span>
        )}
        {title}
      </h2>
      <div className="flex flex-col gap-3 leading-relaxed text-pretty text-foreground/90">{children}</div>
    </section>
  );
}

/**
 * An inline link in running text. A plain link: the prerendered pages run without the router (in the
 * SPA, web/lib/link-interception.ts makes it a router navigation).
 */
export function TextLink({ className, to, hash, ...props }: Omit<React.ComponentProps<"a">, "href"> & { to: string; hash?: string }) {
  return (
    <a
      href={hash ? `${to}#${hash}` : to}
      className={cn("font-medium text-primary underline underline-offset-4 hover:no-underline", className)}
      {...props}
    />
  );
}
