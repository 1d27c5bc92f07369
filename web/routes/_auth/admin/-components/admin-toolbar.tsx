import { Link, useLocation } from "@tanstack/react-router";
import ChevronLeftIcon from "lucide-react/icons/chevron-left";
import ChevronRightIcon from "lucide-react/icons/chevron-right";
import LayoutGridIcon from "lucide-react/icons/layout-grid";
import * as React from "react";

import { CONTENT_COLUMN } from "@/components/layout/content-column";
import { Tooltip, TooltipContent, TooltipTrigger } from "@/components/ui/tooltip";
import { useMessages } from "@/i18n/use-messages";
import { useSession } from "@/lib/auth";
import { cn } from "@/lib/utils";
import { sectionsFor } from "./admin-sections";

// docs/product.md §2 "Admin home and toolbar": the sub-pages show an icon toolbar with an 'Admin Home' button
// and the tiles (only those the user may open, docs/decisions/026). The active page is highlighted (and aria-current); on a phone the strip scrolls
// sideways, with the active button scrolled into view. An edge with more buttons beyond it fades out
// and carries an arrow (which scrolls on a tap), so a phone shows that the strip goes on.

const itemClass = cn(
  "flex min-w-[4.75rem] shrink-0 flex-col items-center gap-1 rounded-md px-2 py-1.5 text-[0.7rem] font-medium text-muted-foreground transition-colors outline-none",
  "hover:bg-accent hover:text-accent-foreground focus-visible:ring-[3px] focus-visible:ring-ring/50",
  "data-[status=active]:bg-background data-[status=active]:text-primary data-[status=active]:shadow-sm data-[status=active]:ring-1 data-[status=active]:ring-border",
  "sm:min-w-0 sm:flex-row sm:gap-1.5 sm:px-2.5 sm:py-2 sm:text-sm",
  "[&>svg]:size-5 [&>svg]:shrink-0 sm:[&>svg]:size-4",
);

/** Which edges of the strip have buttons beyond them (a pixel of rounding is no overflow). */
type Overflow = { before: boolean; after: boolean };

function overflowOf(list: HTMLElement): Overflow {
  return { before: list.scrollLeft > 1, after: list.scrollLeft + list.clientWidth < list.scrollWidth - 1 };
}

/** A fade of 2.5rem at each edge with more beyond it, as a mask, so it works on any background. */
function fadeMask({ before, after }: Overflow): string | undefined {
  if (!before && !after) return undefined;
  return `linear-gradient(to right, ${before ? "transparent, #000 2.5rem" : "#000"}, ${after ? "#000 calc(100% - 2.5rem), transparent" : "#000"})`;
}

export function AdminToolbar() {
  const listRef = React.useRef<HTMLUListElement>(null);
  const pathname = useLocation({ select: (location) => location.pathname });
  const { user } = useSession();
  const sections = sectionsFor(user);
  const t = useMessages();
  const [overflow, setOverflow] = React.useState<Overflow>({ before: false, after: false });

  // Follows the strip's scroll position and width (a rotated phone, a resized window, the buttons' labels
  // changing with the language).
  React.useEffect(() => {
    const list = listRef.current;
    if (!list) return;
    const update = () =>
      setOverflow((current) => {
        const next = overflowOf(list);
        return next.before === current.before && next.after === current.after ? current : next;
      });
    update();
    list.addEventListener("scroll", update, { passive: true });
    const resized = new ResizeObserver(update);
    resized.observe(list);
    return () => {
      list.removeEventListener("scroll", update);
      resized.disconnect();
    };
  }, []);

  const scrollBy = (direction: 1 | -1) => {
    const list = listRef.current;
    list?.scrollBy({ left: direction * list.clientWidth * 0.7, behavior: "smooth" });
  };
  const mask = fadeMask(overflow);

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
      <nav
        aria-label={t.shell.toolbar.nav}
        className={cn(CONTENT_COLUMN, "relative")}
        data-overflow-before={overflow.before || undefined}
        data-overflow-after={overflow.after || undefined}
      >
        <ul
          ref={listRef}
          className="relative flex items-center gap-1 overflow-x-auto py-2 [scrollbar-width:thin]"
          style={mask ? { maskImage: mask, WebkitMaskImage: mask } : undefined}
        >
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
        {overflow.before && <ScrollHint side="before" label={t.shell.toolbar.scrollBack} onClick={() => scrollBy(-1)} />}
        {overflow.after && <ScrollHint side="after" label={t.shell.toolbar.scrollOn} onClick={() => scrollBy(1)} />}
      </nav>
    </div>
  );
}

/**
 * The arrow over a faded edge. For a pointer only: a keyboard reaches every button by Tab, which scrolls
 * the strip by itself, so the arrow is no tab stop and screen readers skip it.
 */
function ScrollHint({ side, label, onClick }: { side: "before" | "after"; label: string; onClick: () => void }) {
  const Icon = side === "before" ? ChevronLeftIcon : ChevronRightIcon;
  return (
    <button
      type="button"
      tabIndex={-1}
      aria-hidden="true"
      title={label}
      data-slot="toolbar-scroll-hint"
      data-side={side}
      onClick={onClick}
      className={cn(
        "absolute top-1/2 flex size-7 -translate-y-1/2 items-center justify-center rounded-full border bg-background text-muted-foreground shadow-sm",
        "hover:text-foreground",
        side === "before" ? "left-1 sm:left-2" : "right-1 sm:right-2",
      )}
    >
      <Icon className="size-4" />
    </button>
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
