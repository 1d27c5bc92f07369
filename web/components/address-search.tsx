import { GEOCODER_PROVIDER_HEADER, GEOCODER_STATUS_HEADER, GEOCODER_UNAVAILABLE } from "#src/features/geocode/geocode-headers";
import type { AddressSuggestion, GeocoderProvider } from "#src/features/geocode/geocode.service";
import LoaderCircleIcon from "lucide-react/icons/loader-circle";
import MapPinIcon from "lucide-react/icons/map-pin";
import * as React from "react";

import { Input } from "@/components/ui/input";
import { cn } from "@/lib/utils";

// docs/product.md §2 "Address-search field", §3 "Address suggestion", §5 "Address search", §9: suggestions after
// 3 characters, debounced 500 ms, at most 5, Netherlands only. docs/architecture.md §3: the browser asks our own
// server (GET /api/geocode/search), which asks PDOK or a Nominatim host; errors give an empty list.

export const MIN_QUERY_LENGTH = 3;
export const DEBOUNCE_MS = 500;
export const MAX_SUGGESTIONS = 5;

export const HINT_TEXT = "Type at least 3 characters to search";
export const EMPTY_TEXT = "No addresses found";

// The server's answer shape (docs/product.md §3 address suggestion), shared with the proxy that produces it.
export type { AddressSuggestion };

/** What picking a suggestion fills in. */
export type PickedAddress = {
  /** Road plus house number. */
  address: string;
  /** The first of city, town, village, hamlet, municipality. */
  city: string;
  postalCode: string;
  state: string;
  country: string;
};

export function toPickedAddress({ address }: AddressSuggestion): PickedAddress {
  return {
    address: [address.road, address.house_number].filter(Boolean).join(" "),
    city: address.city ?? address.town ?? address.village ?? address.hamlet ?? address.municipality ?? "",
    postalCode: address.postcode ?? "",
    state: address.state ?? "",
    country: address.country ?? "",
  };
}

function isSuggestion(value: unknown): value is AddressSuggestion {
  if (typeof value !== "object" || value === null) return false;
  const { display_name, address } = value as Record<string, unknown>;
  return typeof display_name === "string" && typeof address === "object" && address !== null;
}

export type AddressAnswer = {
  suggestions: AddressSuggestion[];
  /** null when the server could not be asked or did not say. */
  provider: GeocoderProvider | null;
  /** The search failed (our server, the network or the provider): an empty list without a message. */
  failed: boolean;
};

function providerOf(response: Response): GeocoderProvider | null {
  const named = response.headers.get(GEOCODER_PROVIDER_HEADER);
  return named === "pdok" || named === "nominatim" ? named : null;
}

/** Asks our server; any failure (network, status, shape, the provider) is an empty list, marked failed. */
export async function fetchAddressSuggestions(query: string, signal?: AbortSignal): Promise<AddressAnswer> {
  try {
    const response = await fetch(`/api/geocode/search?q=${encodeURIComponent(query)}`, {
      headers: { Accept: "application/json" },
      signal,
    });
    const provider = providerOf(response);
    if (!response.ok || response.headers.get(GEOCODER_STATUS_HEADER) === GEOCODER_UNAVAILABLE)
      return { suggestions: [], provider, failed: true };
    const body: unknown = await response.json();
    if (!Array.isArray(body)) return { suggestions: [], provider, failed: true };
    return { suggestions: body.filter(isSuggestion).slice(0, MAX_SUGGESTIONS), provider, failed: false };
  } catch {
    return { suggestions: [], provider: null, failed: true };
  }
}

/**
 * The credit each provider's terms ask for wherever its data is shown: PDOK's BAG addresses come from the
 * Kadaster; OpenStreetMap data (Nominatim) must name its contributors and point to the licence.
 */
function ProviderAttribution({ provider }: { provider: GeocoderProvider }) {
  if (provider === "nominatim") {
    return (
      <>
        Adresgegevens:{" "}
        <a
          href="https://www.openstreetmap.org/copyright"
          target="_blank"
          rel="noopener noreferrer"
          className="underline underline-offset-2"
        >
          © OpenStreetMap contributors
        </a>
      </>
    );
  }
  return <>Adresgegevens: PDOK / Kadaster (BAG)</>;
}

// "failed": the search could not be done; docs/product.md §9 shows an empty list with no message then (docs/decisions/014).
type Status = "idle" | "short" | "loading" | "done" | "failed";

export type AddressSearchProps = Omit<React.ComponentProps<"input">, "value" | "onChange" | "onSelect" | "role"> & {
  id: string;
  value: string;
  onValueChange: (value: string) => void;
  onPick: (picked: PickedAddress, suggestion: AddressSuggestion) => void;
  containerClassName?: string;
};

/**
 * A combobox (WAI-ARIA 1.2 pattern, list autocomplete): the input keeps focus, ArrowDown/ArrowUp move
 * through the suggestions (aria-activedescendant), Enter picks, Escape closes. Only typing searches;
 * picking fills the field without starting a new search. Each search carries a number and only the
 * newest one may show its answer, so a slow older answer never overwrites a newer one.
 */
export function AddressSearch({
  id,
  value,
  onValueChange,
  onPick,
  containerClassName,
  className,
  onKeyDown,
  onBlur,
  onFocus,
  "aria-describedby": describedBy,
  // The field's own suggestions stand in for the browser's; a form may name its own token (the order form's customer).
  autoComplete = "off",
  ...inputProps
}: AddressSearchProps) {
  const listId = `${id}-suggestions`;
  const statusId = `${id}-status`;
  const attributionId = `${id}-attribution`;
  const [suggestions, setSuggestions] = React.useState<AddressSuggestion[]>([]);
  const [status, setStatus] = React.useState<Status>("idle");
  const [open, setOpen] = React.useState(false);
  const [activeIndex, setActiveIndex] = React.useState(-1);
  // PDOK is the default provider; the server's answers say when an admin chose another one.
  const [provider, setProvider] = React.useState<GeocoderProvider>("pdok");
  const latestRequest = React.useRef(0);
  const timer = React.useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // Searches are not aborted when a newer one starts (the request counter decides which answer
  // shows); leaving the page aborts whatever is still running.
  const unmounted = React.useRef<AbortController | null>(null);

  React.useEffect(() => {
    const controller = new AbortController();
    unmounted.current = controller;
    return () => {
      clearTimeout(timer.current);
      controller.abort();
    };
  }, []);

  function cancelPending() {
    clearTimeout(timer.current);
  }

  async function search(query: string, request: number) {
    const answer = await fetchAddressSuggestions(query, unmounted.current?.signal);
    // The text changed (or a suggestion was picked) while this search ran: its answer is stale.
    if (request !== latestRequest.current) return;
    if (answer.provider) setProvider(answer.provider);
    setSuggestions(answer.suggestions);
    setActiveIndex(-1);
    setStatus(answer.failed ? "failed" : "done");
  }

  function handleChange(event: React.ChangeEvent<HTMLInputElement>) {
    const text = event.target.value;
    onValueChange(text);
    cancelPending();
    const query = text.trim();
    // Every change makes the answers to earlier texts stale.
    const request = ++latestRequest.current;
    if (query.length < MIN_QUERY_LENGTH) {
      setSuggestions([]);
      setActiveIndex(-1);
      setStatus(query.length === 0 ? "idle" : "short");
      setOpen(query.length > 0);
      return;
    }
    setStatus("loading");
    setOpen(true);
    timer.current = setTimeout(() => void search(query, request), DEBOUNCE_MS);
  }

  function pick(index: number) {
    const suggestion = suggestions[index];
    if (!suggestion) return;
    cancelPending();
    latestRequest.current++;
    const picked = toPickedAddress(suggestion);
    onValueChange(picked.address || suggestion.display_name);
    onPick(picked, suggestion);
    setOpen(false);
    setActiveIndex(-1);
  }

  function handleKeyDown(event: React.KeyboardEvent<HTMLInputElement>) {
    onKeyDown?.(event);
    if (event.defaultPrevented) return;
    const count = suggestions.length;
    switch (event.key) {
      case "ArrowDown":
        event.preventDefault();
        if (!open) {
          if (status !== "idle") setOpen(true);
          if (count > 0) setActiveIndex(0);
        } else if (count > 0) {
          setActiveIndex((current) => (current + 1) % count);
        }
        break;
      case "ArrowUp":
        event.preventDefault();
        if (!open) {
          if (status !== "idle") setOpen(true);
          if (count > 0) setActiveIndex(count - 1);
        } else if (count > 0) {
          setActiveIndex((current) => (current <= 0 ? count - 1 : current - 1));
        }
        break;
      case "Enter":
        // Enter picks the highlighted suggestion instead of submitting the form.
        if (open && activeIndex >= 0) {
          event.preventDefault();
          pick(activeIndex);
        }
        break;
      case "Escape":
        if (open) {
          event.preventDefault();
          setOpen(false);
          setActiveIndex(-1);
        }
        break;
      case "Tab":
        setOpen(false);
        break;
    }
  }

  const showList = open && status === "done" && suggestions.length > 0;
  const message = status === "short" ? HINT_TEXT : status === "done" && suggestions.length === 0 ? EMPTY_TEXT : null;
  const showPopup = open && (showList || message !== null);
  const announcement =
    !open || status === "failed"
      ? ""
      : status === "loading"
        ? "Zoeken…"
        : (message ?? `${suggestions.length} ${suggestions.length === 1 ? "adres" : "adressen"} gevonden`);
  const activeId = showList && activeIndex >= 0 ? `${id}-option-${activeIndex}` : undefined;

  // On a phone the field often sits low on the screen, above the keyboard, and the suggestions
  // opened out of sight below it. Scrolling the page just enough keeps them in view (no-op when they are).
  const popupRef = React.useRef<HTMLDivElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: new suggestions change the popup's height, so it is scrolled into view again
  React.useEffect(() => {
    if (showPopup) popupRef.current?.scrollIntoView({ block: "nearest" });
  }, [showPopup, suggestions]);

  return (
    <div className={cn("grid gap-1.5", containerClassName)}>
      <div className="relative">
        <Input
          {...inputProps}
          id={id}
          type="text"
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={showList}
          aria-controls={listId}
          aria-activedescendant={activeId}
          aria-describedby={[describedBy, attributionId].filter(Boolean).join(" ")}
          autoComplete={autoComplete}
          value={value}
          onChange={handleChange}
          onKeyDown={handleKeyDown}
          onFocus={(event) => {
            onFocus?.(event);
            if (status === "done" && suggestions.length > 0) setOpen(true);
          }}
          onBlur={(event) => {
            onBlur?.(event);
            setOpen(false);
            setActiveIndex(-1);
          }}
          className={cn("pr-9", className)}
        />
        <span aria-hidden="true" className="pointer-events-none absolute inset-y-0 right-3 flex items-center text-muted-foreground">
          {status === "loading" && open ? <LoaderCircleIcon className="size-4 animate-spin" /> : <MapPinIcon className="size-4" />}
        </span>
        <div
          ref={popupRef}
          data-slot="address-popup"
          hidden={!showPopup}
          className="absolute top-full right-0 left-0 z-30 mt-1 overflow-hidden rounded-md border bg-popover text-popover-foreground shadow-lg"
        >
          {message && (
            <p data-slot="address-message" className="px-3 py-2.5 text-sm text-muted-foreground">
              {message}
            </p>
          )}
          {/* biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: ARIA in HTML allows role=listbox on ul */}
          <ul id={listId} role="listbox" aria-label="Adressuggesties" hidden={!showList} className="max-h-72 overflow-y-auto py-1">
            {suggestions.map((suggestion, index) => {
              const picked = toPickedAddress(suggestion);
              const secondLine = [picked.postalCode, picked.city].filter(Boolean).join(" ");
              return (
                // biome-ignore lint/a11y/useFocusableInteractive: combobox pattern, focus stays in the input (aria-activedescendant)
                // biome-ignore lint/a11y/useKeyWithClickEvents: the input's arrow keys and Enter pick an option
                <li
                  // biome-ignore lint/suspicious/noArrayIndexKey: the list is replaced whole, never reordered, and display_name may repeat
                  key={`${index}-${suggestion.display_name}`}
                  id={`${id}-option-${index}`}
                  // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: ARIA in HTML allows role=option on li
                  role="option"
                  aria-selected={index === activeIndex}
                  // Keep focus in the input: a click must not blur it before it picks.
                  onMouseDown={(event) => event.preventDefault()}
                  onClick={() => pick(index)}
                  onMouseMove={() => setActiveIndex(index)}
                  className={cn(
                    "flex cursor-pointer items-start gap-2.5 px-3 py-2 text-sm",
                    index === activeIndex && "bg-accent text-accent-foreground",
                  )}
                >
                  <MapPinIcon aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-primary" />
                  <span className="flex min-w-0 flex-col">
                    <span className="font-medium">{picked.address || suggestion.display_name}</span>
                    {secondLine && <span className="text-xs text-muted-foreground">{secondLine}</span>}
                  </span>
                </li>
              );
            })}
          </ul>
        </div>
      </div>
      <p id={statusId} data-slot="address-status" role="status" aria-live="polite" className="sr-only">
        {announcement}
      </p>
      <p id={attributionId} data-slot="address-attribution" className="text-xs text-muted-foreground">
        <ProviderAttribution provider={provider} />
      </p>
    </div>
  );
}
