import { describe, expect, it } from "vitest";

import { diffSelection, hasChanges } from "./selection-diff";

describe("diffSelection", () => {
  it("lists what was ticked as added and what was unticked as removed", () => {
    expect(diffSelection([1, 2, 3], [2, 3, 4, 5])).toEqual({ added: [4, 5], removed: [1] });
  });

  it("reports no changes when the same items are ticked in another order", () => {
    const diff = diffSelection([3, 1], [1, 3]);
    expect(diff).toEqual({ added: [], removed: [] });
    expect(hasChanges(diff)).toBe(false);
  });

  it("counts each item once even when it is listed twice", () => {
    expect(diffSelection([1, 1], [2, 2])).toEqual({ added: [2], removed: [1] });
  });
});
