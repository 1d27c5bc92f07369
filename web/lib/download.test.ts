import { describe, expect, it } from "vitest";

import { fileNameFromContentDisposition } from "./download";

describe("fileNameFromContentDisposition", () => {
  it("reads the quoted file name the server sends", () => {
    expect(fileNameFromContentDisposition('attachment; filename="app_v100_1.0.0.apk"')).toBe("app_v100_1.0.0.apk");
  });

  it("reads a bare file name", () => {
    expect(fileNameFromContentDisposition("attachment; filename=app_latest.apk")).toBe("app_latest.apk");
  });

  it("prefers filename* (RFC 5987) over filename", () => {
    expect(fileNameFromContentDisposition("attachment; filename=\"app.apk\"; filename*=UTF-8''app_v2_caf%C3%A9.apk")).toBe(
      "app_v2_café.apk",
    );
  });

  it("never lets the header choose a folder", () => {
    expect(fileNameFromContentDisposition('attachment; filename="../../etc/app.apk"')).toBe("app.apk");
  });

  it("answers null without a header or a name", () => {
    expect(fileNameFromContentDisposition(null)).toBeNull();
    expect(fileNameFromContentDisposition("attachment")).toBeNull();
  });
});
