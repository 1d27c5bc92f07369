import ChevronLeftIcon from "lucide-react/icons/chevron-left";
import ChevronRightIcon from "lucide-react/icons/chevron-right";
import ChevronsLeftIcon from "lucide-react/icons/chevrons-left";
import ChevronsRightIcon from "lucide-react/icons/chevrons-right";

import { Button } from "@/components/ui/button";
import { Label } from "@/components/ui/label";
import { NativeSelect } from "@/components/ui/native-select";
import { type ManagementSearch, PER_PAGE_CHOICES } from "./search";
import { formatCount } from "./shared";

/** First, previous, 'Pagina X van Y', next and last. `page` is the page on screen, `urlPage` the one asked for. */
export function Pager({
  label,
  page,
  pageCount,
  urlPage,
  onPage,
}: {
  label: string;
  page: number;
  pageCount: number;
  urlPage: number;
  onPage: (page: number) => void;
}) {
  const atStart = urlPage <= 1;
  const atEnd = urlPage >= pageCount;
  return (
    <nav aria-label={label} className="flex items-center gap-1">
      <Button variant="outline" size="icon" className="size-8" aria-label="Eerste pagina" disabled={atStart} onClick={() => onPage(1)}>
        <ChevronsLeftIcon aria-hidden="true" />
      </Button>
      {/* On a phone the words give way to arrows (still their names), so the pager fits 375 px. */}
      <Button
        variant="outline"
        size="sm"
        className="max-sm:size-8 max-sm:px-0"
        disabled={atStart}
        onClick={() => onPage(Math.min(urlPage, pageCount) - 1)}
      >
        <ChevronLeftIcon aria-hidden="true" className="sm:hidden" />
        <span className="max-sm:sr-only">Vorige</span>
      </Button>
      <span data-slot="page-status" className="px-1 whitespace-nowrap tabular-nums">
        Pagina {formatCount(page)} van {formatCount(pageCount)}
      </span>
      <Button variant="outline" size="sm" className="max-sm:size-8 max-sm:px-0" disabled={atEnd} onClick={() => onPage(urlPage + 1)}>
        <span className="max-sm:sr-only">Volgende</span>
        <ChevronRightIcon aria-hidden="true" className="sm:hidden" />
      </Button>
      <Button
        variant="outline"
        size="icon"
        className="size-8"
        aria-label="Laatste pagina"
        disabled={atEnd}
        onClick={() => onPage(pageCount)}
      >
        <ChevronsRightIcon aria-hidden="true" />
      </Button>
    </nav>
  );
}

/** How many orders a page shows: one of the choices the server takes. */
export function PerPageSelect({ value, onChange }: { value: number; onChange: (perPage: ManagementSearch["per_page"]) => void }) {
  return (
    <div className="flex items-center gap-2">
      <Label htmlFor="orders-per-page" className="font-normal">
        Per pagina
      </Label>
      <NativeSelect
        id="orders-per-page"
        className="h-8"
        value={String(value)}
        onChange={(e) => onChange(Number(e.target.value) as ManagementSearch["per_page"])}
      >
        {PER_PAGE_CHOICES.map((n) => (
          <option key={n} value={String(n)}>
            {n}
          </option>
        ))}
      </NativeSelect>
    </div>
  );
}
