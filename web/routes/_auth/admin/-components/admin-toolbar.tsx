import { Link, useLocation } from "@tanstack/react-router";
import LayoutGridIcon from "lucide-react/icons/layout-grid";
import * as React from "react";

import { CONTENT_COLUMN } from "@/components/layout/content-column";
import { Tooltip, TooltipContent, TooltipTrigger } from "@/components/ui/tooltip";
import { useMessages } from "@/i18n/use-messages";
import { useSession } from "@/lib/auth";
import { cn } from "@/lib/utils";
import { sectionsFor } from "./admin-sections";

// docs/product.md §2 "Admin home and toolbar": the sub-pages show an icon toolbar with an 'Admin Home' button
// and the tiles (only those the user may open, issue 13). The active page is highlighted (and aria-current); on a phone the strip scrolls
// sideways, with the active button scrolled into view.

const itemClass = cn(
  "flex min-w-[4.75rem] shrink-0 flex-col items-center gap-1 rounded-md px-2 py-1.5 text-[0.7rem] font-medium text-muted-foreground transition-colors outline-none",
  "hover:bg-accent hover:text-accent-foreground focus-visible:ring-[3px] focus-visible:ring-ring/50",
  "data-[status=active]:bg-background data-[status=active]:text-primary data-[status=active]:shadow-sm data-[status=active]:ring-1 data-[status=active]:ring-border",
  "sm:min-w-0 sm:flex-row sm:gap-2 sm:px-3 sm:py-2 sm:text-sm",
  "[&>svg]:size-5 [&>svg]:shrink-0 sm:[&>svg]:size-4",
);

export function AdminToolbar() {
  const listRef = React.useRef<HTMLUListElement>(null);
  const pathname = useLocation({ select: (location) => location.pathname });
  const { user } = useSession();
  const sections = sectionsFor(user);
  const t = useMessages();

  // Bring the active button into view on a narrow screen (after every navigation), without
  // scrolling the page itself.
  // biome-ignore lint/correctness/useExhaustiveDependencies: pathname is the trigger, the active button changes with it
  React.useEffect(() => {
    const list = listRef.current;
    const active = list?.querySelector<HTMLElement>("[aria-current=page]");
    if (!list || !active) return;
    const overflow = active.offsetLeft + active.offsetWidth - (list.scrollLeft + list.clientWidth);
    if (overflow > 0 || active.offsetLeft < list.scrollLeft) {
      list.scrollLeft = active.offsetLeft - (list.clientWidth - active.offsetWidth) / 2;
    }
  }, [pathname]);

  return (
    <div data-slot="admin-toolbar" className="border-b bg-muted/60">
      <nav aria-label={t.shell.toolbar.nav} className={CONTENT_COLUMN}>
        <ul ref={listRef} className="relative flex items-center gap-1 overflow-x-auto py-2 [scrollbar-width:thin]">
          <ToolbarItem to="/admin" label={t.shell.toolbar.home} hint={t.shell.toolbar.homeHint} icon={LayoutGridIcon} exact />
          <li aria-hidden="true" className="mx-1 h-8 w-px shrink-0 bg-border" />
          {sections.map((section) => (
            <ToolbarItem
              key={section.to}
              to={section.to}
              label={t.shell.sections[section.key].title}
              hint={t.shell.sections[section.key].description}
              icon={section.icon}
            />
          ))}
        </ul>
      </nav>
    </div>
  );
}

function ToolbarItem({
  to,
  label,
  hint,
  icon: Icon,
  exact = false,
}: {
  to: string;
  label: string;
  hint: string;
  icon: typeof LayoutGridIcon;
  exact?: boolean;
}) {
  return (
    <li className="shrink-0">
      <Tooltip>
        <TooltipTrigger asChild>
          <Link to={to} activeOptions={{ exact }} className={itemClass}>
            <Icon aria-hidden="true" />
            {label}
          </Link>
        </TooltipTrigger>
        <TooltipContent side="bottom">{hint}</TooltipContent>
      </Tooltip>
    </li>
  );
}
