import { describe, expect, it } from "vitest";

import { formatBookingDate, formatCount, formatDay, formatEuroNl, formatEuroWhole, percentOf } from "./charts-format";

// Intl puts a no-break space between '€' and the amount.
const plain = (text: string) => text.replace(/\s/g, " ");

describe("the dashboard's nl-NL figures", () => {
  it("groups thousands with a dot and writes euros the Dutch way", () => {
    expect(formatCount(50000)).toBe("50.000");
    expect(formatCount(5001)).toBe("5.001");
    expect(plain(formatEuroNl(1234.56))).toBe("€ 1.234,56");
    expect(plain(formatEuroWhole(1234.56))).toBe("€ 1.235");
  });

  it("names a day without shifting it to the browser's time zone", () => {
    expect(formatDay("2026-12-02")).toBe("2 dec");
    expect(formatDay("2026-12-02", "long")).toBe("wo 2 december 2026");
    expect(formatBookingDate("2026-12-03")).toBe("3 dec 2026");
    expect(formatDay("not a day")).toBe("not a day");
  });

  it("gives a whole percentage, 0 when there is nothing to share", () => {
    expect(percentOf(1, 3)).toBe(33);
    expect(percentOf(5, 0)).toBe(0);
    expect(percentOf(12, 10)).toBe(100);
  });
});
