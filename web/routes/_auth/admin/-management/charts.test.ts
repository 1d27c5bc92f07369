import { describe, expect, it } from "vitest";

import { cumulativeMoney } from "./charts";

const day = (date: string, invoiced_incl: number, received_incl: number) => ({
  date,
  orders: 1,
  packages: 1,
  invoiced_incl,
  received_incl,
});

describe("cumulativeMoney", () => {
  it("adds the money up day by day, from zero the day before the first", () => {
    expect(cumulativeMoney([day("2026-12-01", 90.75, 0), day("2026-12-03", 0.1, 90.75), day("2026-12-04", 0.2, 0.1)])).toEqual([
      { date: "2026-11-30", invoiced: 0, received: 0 },
      { date: "2026-12-01", invoiced: 90.75, received: 0 },
      { date: "2026-12-03", invoiced: 90.85, received: 90.75 },
      { date: "2026-12-04", invoiced: 91.05, received: 90.85 },
    ]);
  });

  it("is empty without days", () => {
    expect(cumulativeMoney([])).toEqual([]);
  });
});
