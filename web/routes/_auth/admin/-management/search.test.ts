import { describe, expect, it } from "vitest";

import { selectedText } from "./bulk-actions";
import { effectiveSort, nextSort, orderFilters, ordersPageInput, validateManagementSearch, withoutDefaults } from "./search";

// docs/decisions/034: the dashboard's URL state — what a link or a hand-edited address turns into, and what the
// server is asked for.

describe("the dashboard's URL", () => {
  it("keeps what it understands", () => {
    expect(
      validateManagementSearch({
        tab: "orders",
        q: "jansen",
        paid: false,
        tabler_id: 3,
        sort: "name",
        dir: "desc",
        page: 3,
        per_page: 100,
      }),
    ).toEqual({ tab: "orders", q: "jansen", paid: false, tabler_id: 3, sort: "name", dir: "desc", page: 3, per_page: 100 });
    expect(validateManagementSearch({ tabler_id: "none", overdue: true, invoice_sent: true, cancelled: false })).toEqual({
      tabler_id: "none",
      overdue: true,
      invoice_sent: true,
      cancelled: false,
    });
  });

  it("falls back to the defaults for anything else, never an error", () => {
    expect(
      validateManagementSearch({
        tab: "unknown",
        q: { nested: true },
        paid: "yes",
        overdue: false,
        tabler_id: -4,
        sort: "email",
        dir: "up",
        page: 0,
        per_page: 75,
        extra: "x",
      }),
    ).toEqual({});
    expect(validateManagementSearch({ page: 2.5 })).toEqual({});
    expect(validateManagementSearch({ page: 1e12 })).toEqual({});
  });

  it("leaves the defaults out", () => {
    expect(validateManagementSearch({ tab: "tablers", page: 1, per_page: 50, sort: "created_at", dir: "desc", q: "  " })).toEqual({});
    // A chosen column sorts ascending without saying so.
    expect(validateManagementSearch({ sort: "name", dir: "asc" })).toEqual({ sort: "name" });
    expect(validateManagementSearch({ dir: "asc" })).toEqual({ sort: "created_at" });
    expect(validateManagementSearch({ dir: "desc" })).toEqual({});
  });

  it("reads a search text typed as digits, trimmed and cut to the server's limit", () => {
    expect(validateManagementSearch({ q: 2026 })).toEqual({ q: "2026" });
    expect(validateManagementSearch({ q: "  Piet " })).toEqual({ q: "Piet" });
    expect(validateManagementSearch({ q: "x".repeat(250) }).q).toHaveLength(200);
  });

  it("drops a change back to a default", () => {
    expect(withoutDefaults({ tab: "orders", page: 3, q: "piet" })).toEqual({ tab: "orders", page: 3, q: "piet" });
    expect(withoutDefaults({ tab: "tablers", page: 1, q: undefined })).toEqual({});
  });
});

describe("sorting", () => {
  it("is newest first without a choice", () => {
    expect(effectiveSort({})).toEqual({ sort: "created_at", dir: "desc" });
  });

  it("sorts a column ascending on the first click and descending on the second", () => {
    expect(nextSort({}, "name")).toEqual({ sort: "name", dir: "asc" });
    expect(nextSort({ sort: "name" }, "name")).toEqual({ sort: "name", dir: "desc" });
    expect(nextSort({ sort: "name", dir: "desc" }, "name")).toEqual({ sort: "name", dir: "asc" });
    expect(nextSort({ sort: "name", dir: "desc" }, "amount")).toEqual({ sort: "amount", dir: "asc" });
    // The default column is already descending: one click makes it ascending.
    expect(nextSort({}, "created_at")).toEqual({ sort: "created_at", dir: "asc" });
  });
});

describe("what the server is asked", () => {
  it("sends the filters as text, with the page, its size and the sort", () => {
    const search = validateManagementSearch({ q: "piet", paid: true, tabler_id: "none", overdue: true, page: 4, sort: "tabler_name" });
    expect(orderFilters(search)).toEqual({
      paid: "true",
      invoice_sent: undefined,
      cancelled: undefined,
      overdue: "true",
      tabler_id: "none",
      q: "piet",
    });
    expect(ordersPageInput(search)).toMatchObject({
      q: "piet",
      paid: "true",
      tabler_id: "none",
      page: "4",
      per_page: "50",
      sort: "tabler_name",
      dir: "asc",
    });
    expect(ordersPageInput({})).toMatchObject({ page: "1", per_page: "50", sort: "created_at", dir: "desc" });
    expect(ordersPageInput({ tabler_id: 7, cancelled: false, per_page: 200 })).toMatchObject({
      tabler_id: "7",
      cancelled: "false",
      per_page: "200",
    });
  });
});

describe("the selection", () => {
  it("says when part of it is on other pages", () => {
    expect(selectedText(3, 0)).toBe("3 geselecteerd");
    expect(selectedText(3, 1)).toBe("3 geselecteerd, waarvan 1 op een andere pagina");
    expect(selectedText(1200, 1150)).toBe("1.200 geselecteerd, waarvan 1.150 op andere pagina's");
  });
});
