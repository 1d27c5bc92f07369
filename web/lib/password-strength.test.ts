import { describe, expect, it } from "vitest";

import { scorePassword, strengthLabel } from "./password-strength";

describe("scorePassword", () => {
  it("gives 2 points per character", () => {
    expect(scorePassword("xk") - scorePassword("x")).toBe(2);
    expect(scorePassword("xkmw")).toBe(4 * 2 + 10);
  });

  it("caps the length points at 40", () => {
    expect(scorePassword("mnbvcxzlkjhgfdspoiuy")).toBe(40 + 10); // 20 characters
    expect(scorePassword("mnbvcxzlkjhgfdspoiuytrewq")).toBe(40 + 10); // 25 characters
  });

  it("adds 10 for each character class present: lowercase, uppercase, digit and other", () => {
    expect(scorePassword("k")).toBe(2 + 10);
    expect(scorePassword("kM")).toBe(4 + 20);
    expect(scorePassword("kM7")).toBe(6 + 30);
    expect(scorePassword("kM7!")).toBe(8 + 40);
    expect(scorePassword("é")).toBe(2 + 10); // outside a-z, A-Z and 0-9 counts as other
  });

  it("takes 10 off for a run of 3 or more identical characters", () => {
    expect(scorePassword("kkkm")).toBe(8 + 10 - 10);
    expect(scorePassword("kkmk")).toBe(8 + 10);
  });

  it("takes 10 off for a common sequence, whatever its case", () => {
    for (const password of ["xabcx", "xqwex", "xasdx"]) expect(scorePassword(password)).toBe(scorePassword("xkmwx") - 10);
    expect(scorePassword("x123x")).toBe(10 + 20 - 10);
    expect(scorePassword("xQWEx")).toBe(10 + 20 - 10);
    expect(scorePassword("PassWord")).toBe(16 + 20 - 10);
    expect(scorePassword("abc123")).toBe(12 + 20 - 10); // one penalty, however many sequences
  });

  it("adds 10 for a length of 16 or more with all four classes", () => {
    expect(scorePassword("Xk9!mPq2#vLr7$t")).toBe(30 + 40); // 15 characters
    expect(scorePassword("Xk9!mPq2#vLr7$tZ")).toBe(32 + 40 + 10); // 16 characters
    expect(scorePassword("xk9!mpq2#vlr7$tz")).toBe(32 + 30); // 16 characters, no uppercase
  });

  it("adds another 10 for a length of 20 or more with all four classes and no penalties", () => {
    expect(scorePassword("Xk9!mPq2#vLr7$tZw4%n")).toBe(40 + 40 + 10 + 10);
    expect(scorePassword("Xk9!mPq2#vLr7$tZw4%nnn")).toBe(40 + 40 - 10 + 10); // a run of three
    expect(scorePassword("Xk9!mPq2#vLr7$tZw4%abc")).toBe(40 + 40 - 10 + 10); // a common sequence
  });

  it("clamps the score to 0-100", () => {
    expect(scorePassword("")).toBe(0);
    expect(scorePassword("aaabc")).toBe(0);
    expect(scorePassword("Xk9!mPq2#vLr7$tZw4%nB8&yHj3*")).toBe(100);
  });
});

describe("strengthLabel", () => {
  it("calls a score below 50 Weak", () => {
    expect(strengthLabel(0)).toBe("Weak");
    expect(strengthLabel(49)).toBe("Weak");
  });

  it("calls a score from 50 to 79 Moderate", () => {
    expect(strengthLabel(50)).toBe("Moderate");
    expect(strengthLabel(79)).toBe("Moderate");
  });

  it("calls a score of 80 and above Strong", () => {
    expect(strengthLabel(80)).toBe("Strong");
    expect(strengthLabel(100)).toBe("Strong");
  });
});
