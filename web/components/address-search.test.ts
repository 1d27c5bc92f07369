import { afterEach, describe, expect, it, vi } from "vitest";

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

  const answer = (body: unknown, status = 200) =>
    vi.fn(async () => new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } }));

  it("asks our own server and keeps at most five well-formed suggestions", async () => {
    const item = (n: number) => ({ display_name: `Straat ${n}`, address: { road: "Straat", house_number: String(n) } });
    const fetch = answer([...[1, 2, 3].map(item), { nonsense: true }, ...[4, 5, 6].map(item)]);
    vi.stubGlobal("fetch", fetch);
    const found = await fetchAddressSuggestions("Straat & co");
    expect(found.map((s) => s.display_name)).toEqual(["Straat 1", "Straat 2", "Straat 3", "Straat 4", "Straat 5"]);
    expect(fetch).toHaveBeenCalledWith("/api/geocode/search?q=Straat%20%26%20co", expect.anything());
  });

  it("gives an empty list for an error status, a wrong shape or a network failure", async () => {
    vi.stubGlobal("fetch", answer({ success: false, error: "Too many requests" }, 429));
    expect(await fetchAddressSuggestions("Voorstraat")).toEqual([]);
    vi.stubGlobal("fetch", answer({ results: [] }));
    expect(await fetchAddressSuggestions("Voorstraat")).toEqual([]);
    vi.stubGlobal("fetch", vi.fn(async () => Promise.reject(new TypeError("Failed to fetch"))));
    expect(await fetchAddressSuggestions("Voorstraat")).toEqual([]);
  });
});
