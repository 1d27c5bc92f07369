import { afterEach, describe, expect, it, vi } from "vitest";

import { GEOCODER_PROVIDER_HEADER, GEOCODER_STATUS_HEADER } from "#src/features/geocode/geocode-headers";
import { fetchAddressSuggestions, toPickedAddress } from "./address-search";

describe("toPickedAddress", () => {
  it("joins road and house number and takes the first place name the answer has", () => {
    const base = { road: "Voorstraat", house_number: "12a", postcode: "8861 BK", state: "Fryslân", country: "Nederland" };
    expect(toPickedAddress({ display_name: "", address: { ...base, city: "Harlingen", municipality: "Gemeente" } })).toEqual({
      address: "Voorstraat 12a",
      city: "Harlingen",
      postalCode: "8861 BK",
      state: "Fryslân",
      country: "Nederland",
    });
    for (const key of ["town", "village", "hamlet", "municipality"] as const) {
      expect(toPickedAddress({ display_name: "", address: { [key]: "Plaats" } }).city).toBe("Plaats");
    }
    expect(toPickedAddress({ display_name: "x", address: {} })).toEqual({ address: "", city: "", postalCode: "", state: "", country: "" });
  });
});

describe("fetchAddressSuggestions", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  const answer = (body: unknown, status = 200, provider?: string, extra: Record<string, string> = {}) =>
    vi.fn(
      async () =>
        new Response(JSON.stringify(body), {
          status,
          headers: { "Content-Type": "application/json", ...(provider ? { [GEOCODER_PROVIDER_HEADER]: provider } : {}), ...extra },
        }),
    );

  it("asks our own server and keeps at most five well-formed suggestions", async () => {
    const item = (n: number) => ({ display_name: `Straat ${n}`, address: { road: "Straat", house_number: String(n) } });
    const fetch = answer([...[1, 2, 3].map(item), { nonsense: true }, ...[4, 5, 6].map(item)]);
    vi.stubGlobal("fetch", fetch);
    const found = await fetchAddressSuggestions("Straat & co");
    expect(found.suggestions.map((s) => s.display_name)).toEqual(["Straat 1", "Straat 2", "Straat 3", "Straat 4", "Straat 5"]);
    expect(fetch).toHaveBeenCalledWith("/api/geocode/search?q=Straat%20%26%20co", expect.anything());
  });

  it("gives an empty list marked failed for an error status, a failed provider, a wrong shape or a network failure", async () => {
    vi.stubGlobal("fetch", answer({ success: false, error: "Too many requests" }, 429));
    expect(await fetchAddressSuggestions("Voorstraat")).toEqual({ suggestions: [], provider: null, failed: true });
    vi.stubGlobal("fetch", answer([], 200, "pdok", { [GEOCODER_STATUS_HEADER]: "unavailable" }));
    expect(await fetchAddressSuggestions("Voorstraat")).toEqual({ suggestions: [], provider: "pdok", failed: true });
    vi.stubGlobal("fetch", answer({ results: [] }, 200, "pdok"));
    expect(await fetchAddressSuggestions("Voorstraat")).toEqual({ suggestions: [], provider: "pdok", failed: true });
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => Promise.reject(new TypeError("Failed to fetch"))),
    );
    expect(await fetchAddressSuggestions("Voorstraat")).toEqual({ suggestions: [], provider: null, failed: true });
  });

  it("tells an address nobody has (an answer) from a failure", async () => {
    vi.stubGlobal("fetch", answer([], 200, "pdok"));
    expect(await fetchAddressSuggestions("Nergensstraat")).toEqual({ suggestions: [], provider: "pdok", failed: false });
  });

  it("reads which provider answered from the header the server sets, ignoring unknown names", async () => {
    vi.stubGlobal("fetch", answer([], 200, "nominatim"));
    expect((await fetchAddressSuggestions("Voorstraat")).provider).toBe("nominatim");
    vi.stubGlobal("fetch", answer([], 200, "google"));
    expect((await fetchAddressSuggestions("Voorstraat")).provider).toBeNull();
  });
});
