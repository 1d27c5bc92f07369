import ExternalLinkIcon from "lucide-react/icons/external-link";

import { cn } from "@/lib/utils";

/**
 * A link's text followed by the external-link icon. The icon sits in one unbreakable piece with the last
 * word, so when a narrow screen wraps the text the icon goes along instead of ending up alone on a line
 * or beside the whole block.
 */
export function ExternalLinkText({ text, iconClassName }: { text: string; iconClassName?: string }) {
  const at = text.lastIndexOf(" ");
  return (
    <>
      {text.slice(0, at + 1)}
      <span className="whitespace-nowrap">
        {text.slice(at + 1)}
        <ExternalLinkIcon aria-hidden="true" className={cn("ml-1.5 inline-block size-3.5 align-[-0.125em]", iconClassName)} />
      </span>
    </>
  );
}
