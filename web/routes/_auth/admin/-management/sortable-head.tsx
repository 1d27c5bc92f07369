import ArrowDownIcon from "lucide-react/icons/arrow-down";
import ArrowUpIcon from "lucide-react/icons/arrow-up";
import ArrowUpDownIcon from "lucide-react/icons/arrow-up-down";

import { TableHead } from "@/components/ui/table";
import { cn } from "@/lib/utils";
import type { OrderSort } from "#src/features/orders/orders.schemas";
import type { SortDir } from "./search";

/**
 * A column header that sorts the table on the server: a button inside the <th>, whose aria-sort tells
 * assistive technology how the column is sorted now.
 */
export function SortableHead({
  column,
  label,
  sort,
  dir,
  onSort,
  className,
}: {
  column: OrderSort;
  label: string;
  sort: OrderSort;
  dir: SortDir;
  onSort: (column: OrderSort) => void;
  className?: string;
}) {
  const active = sort === column;
  const Icon = !active ? ArrowUpDownIcon : dir === "asc" ? ArrowUpIcon : ArrowDownIcon;
  return (
    <TableHead aria-sort={!active ? "none" : dir === "asc" ? "ascending" : "descending"} className={className}>
      <button
        type="button"
        onClick={() => onSort(column)}
        className="-mx-1 inline-flex items-center gap-1 rounded-sm px-1 py-0.5 font-medium outline-none hover:bg-muted focus-visible:ring-[3px] focus-visible:ring-ring/50"
      >
        {label}
        <Icon aria-hidden="true" className={cn("size-3.5", !active && "text-muted-foreground")} />
      </button>
    </TableHead>
  );
}
