import { describe, expect, it } from "vitest";

import { isChunkLoadError } from "./chunk-error";

describe("isChunkLoadError", () => {
  it("recognises Chromium's failed dynamic import", () => {
    const error = new TypeError("Failed to fetch dynamically imported module: https://example.test/assets/admin-BxY12.js");
    expect(isChunkLoadError(error)).toBe(true);
  });

  it("recognises Firefox's failed dynamic import", () => {
    expect(isChunkLoadError(new TypeError("error loading dynamically imported module: /assets/faq-1.js"))).toBe(true);
  });

  it("recognises Safari's failed module script import", () => {
    expect(isChunkLoadError(new TypeError("Importing a module script failed."))).toBe(true);
  });

  it("recognises an error named ChunkLoadError", () => {
    const error = new Error("Loading chunk 42 failed.");
    error.name = "ChunkLoadError";
    expect(isChunkLoadError(error)).toBe(true);
  });

  it("recognises Vite's failed CSS preload", () => {
    expect(isChunkLoadError(new Error("Unable to preload CSS for /assets/index-abc.css"))).toBe(true);
  });

  it("recognises a chunk error passed as a plain object or a string", () => {
    expect(isChunkLoadError({ message: "Failed to fetch dynamically imported module: /x.js" })).toBe(true);
    expect(isChunkLoadError("Importing a module script failed.")).toBe(true);
  });

  it("does not treat other errors as chunk errors", () => {
    expect(isChunkLoadError(new Error("Cannot read properties of undefined (reading 'map')"))).toBe(false);
    expect(isChunkLoadError(new TypeError("Failed to fetch"))).toBe(false);
    expect(isChunkLoadError(null)).toBe(false);
    expect(isChunkLoadError(undefined)).toBe(false);
    expect(isChunkLoadError(42)).toBe(false);
  });
});
