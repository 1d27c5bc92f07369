import ChevronDownIcon from "lucide-react/icons/chevron-down";
import type * as React from "react";

/**
 * One question of an accordion, built on <details>: it opens and closes without JavaScript, and the
 * answer is in the page's HTML for crawlers. Items sharing a `name` close each other (one open at a time).
 */
export function FaqItem({ name, question, children }: { name: string; question: string; children: React.ReactNode }) {
  return (
    <details name={name} data-slot="faq-item" className="group border-b last:border-b-0">
      <summary className="flex cursor-pointer list-none items-start justify-between gap-4 rounded-md py-4 text-left font-semibold outline-none hover:text-primary focus-visible:ring-[3px] focus-visible:ring-ring/50 sm:text-lg [&::-webkit-details-marker]:hidden">
        {question}
        <ChevronDownIcon
          aria-hidden="true"
          className="mt-1 size-5 shrink-0 text-muted-foreground transition-transform duration-200 group-open:rotate-180"
        />
      </summary>
      <div className="flex flex-col gap-2 pb-5 leading-relaxed text-pretty text-foreground/85">{children}</div>
    </details>
  );
}
