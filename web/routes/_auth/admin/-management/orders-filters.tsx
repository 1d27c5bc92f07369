import PlusIcon from "lucide-react/icons/plus";

import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { NativeSelect } from "@/components/ui/native-select";
import type { OrderSort } from "#src/features/orders/orders.schemas";
import { DeliveryListButton } from "./delivery";
import { effectiveSort, type ManagementSearch, MAX_SEARCH_LENGTH, type SearchChange, type SortDir } from "./search";
import { UNKNOWN_TABLER } from "./shared";
import { useSearchText } from "./use-search-text";

/** The yes/no flags an order is filtered on, a select each; `id` is the select's. */
const FLAG_FILTERS: { key: "paid" | "invoice_sent" | "cancelled" | "delivered"; id: string; label: string; yes: string; no: string }[] = [
  { key: "paid", id: "filter-paid", label: "Betaald", yes: "Betaald", no: "Open" },
  { key: "invoice_sent", id: "filter-invoice", label: "Factuur", yes: "Verstuurd", no: "Niet verstuurd" },
  { key: "cancelled", id: "filter-cancelled", label: "Gecrediteerd", yes: "Gecrediteerd", no: "Niet gecrediteerd" },
  { key: "delivered", id: "filter-delivered", label: "Bezorgd", yes: "Bezorgd", no: "Niet bezorgd" },
];

/** The sort choices of the phone layout, which has no column headers: value 'sort:dir'. */
const PHONE_SORTS: { sort: OrderSort; dir: SortDir; label: string }[] = [
  { sort: "created_at", dir: "desc", label: "Nieuwste eerst" },
  { sort: "created_at", dir: "asc", label: "Oudste eerst" },
  { sort: "name", dir: "asc", label: "Klant A–Z" },
  { sort: "name", dir: "desc", label: "Klant Z–A" },
  { sort: "tabler_name", dir: "asc", label: "Tabler A–Z" },
  { sort: "tabler_name", dir: "desc", label: "Tabler Z–A" },
  { sort: "amount", dir: "asc", label: "Aantal oplopend" },
  { sort: "amount", dir: "desc", label: "Aantal aflopend" },
  { sort: "paid", dir: "asc", label: "Open eerst" },
  { sort: "paid", dir: "desc", label: "Betaald eerst" },
];

/**
 * The bar above the orders: the search box, the filters, the chosen tabler's delivery list, the sort of the phone
 * layout and 'Nieuwe Bestelling'. Every filter kept in the URL; a new one starts at page 1.
 */
export function OrdersFilters({
  search,
  onSearchChange,
  tablers,
  onNewOrder,
}: {
  search: ManagementSearch;
  onSearchChange: SearchChange;
  tablers: readonly { id: number; name: string }[];
  onNewOrder: () => void;
}) {
  const [text, setText] = useSearchText(search.q ?? "", onSearchChange);
  const setFilter = (changes: Partial<ManagementSearch>) => void onSearchChange({ ...changes, page: undefined });
  const { sort, dir } = effectiveSort(search);

  return (
    <div className="flex flex-wrap items-end gap-3">
      <div className="grid min-w-48 flex-1 gap-1">
        <Label htmlFor="orders-search">Zoeken</Label>
        <Input
          id="orders-search"
          type="search"
          placeholder="Naam, email, adres, bestelnummer…"
          maxLength={MAX_SEARCH_LENGTH}
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
      </div>
      {FLAG_FILTERS.map(({ key, ...flag }) => (
        <FlagFilter key={key} {...flag} value={search[key]} onChange={(value) => setFilter({ [key]: value })} />
      ))}
      <div className="grid gap-1">
        <Label htmlFor="filter-tabler">Tabler</Label>
        <NativeSelect
          id="filter-tabler"
          value={search.tabler_id === undefined ? "" : String(search.tabler_id)}
          onChange={(e) => {
            const value = e.target.value;
            setFilter({ tabler_id: value === "" ? undefined : value === "none" ? "none" : Number(value) });
          }}
        >
          <option value="">Alle</option>
          {tablers.map((t) => (
            <option key={t.id} value={String(t.id)}>
              {t.name}
            </option>
          ))}
          <option value="none">{UNKNOWN_TABLER}</option>
        </NativeSelect>
      </div>
      {/* With one tabler's orders on screen, their list to print is one click away (docs/decisions/023). */}
      {search.tabler_id !== undefined && (
        <DeliveryListButton
          className="h-9"
          of={{
            id: search.tabler_id,
            name: search.tabler_id === "none" ? UNKNOWN_TABLER : (tablers.find((t) => t.id === search.tabler_id)?.name ?? UNKNOWN_TABLER),
          }}
        />
      )}
      <div className="flex h-9 items-center gap-2">
        <Checkbox
          id="filter-overdue"
          checked={search.overdue === true}
          onCheckedChange={(checked) => setFilter({ overdue: checked === true ? true : undefined })}
        />
        <Label htmlFor="filter-overdue">Achterstallig</Label>
      </div>
      <div className="grid gap-1 md:hidden">
        <Label htmlFor="orders-sort">Sorteren</Label>
        <NativeSelect
          id="orders-sort"
          value={`${sort}:${dir}`}
          onChange={(e) => {
            const [nextSortKey, nextDir] = e.target.value.split(":") as [OrderSort, SortDir];
            void onSearchChange({ sort: nextSortKey, dir: nextDir, page: undefined });
          }}
        >
          {PHONE_SORTS.map((o) => (
            <option key={`${o.sort}:${o.dir}`} value={`${o.sort}:${o.dir}`}>
              {o.label}
            </option>
          ))}
        </NativeSelect>
      </div>
      <Button onClick={onNewOrder}>
        <PlusIcon aria-hidden="true" />
        Nieuwe Bestelling
      </Button>
    </div>
  );
}

/** A yes/no/all filter of the orders table: one select per flag, all alike. */
function FlagFilter(props: {
  id: string;
  label: string;
  value: boolean | undefined;
  yes: string;
  no: string;
  onChange: (value: boolean | undefined) => void;
}) {
  const { id, label, value, yes, no, onChange } = props;
  return (
    <div className="grid gap-1">
      <Label htmlFor={id}>{label}</Label>
      <NativeSelect
        id={id}
        value={value === undefined ? "" : String(value)}
        onChange={(e) => onChange(e.target.value === "" ? undefined : e.target.value === "true")}
      >
        <option value="">Alle</option>
        <option value="true">{yes}</option>
        <option value="false">{no}</option>
      </NativeSelect>
    </div>
  );
}
