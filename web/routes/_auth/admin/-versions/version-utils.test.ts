import { describe, expect, it } from "vitest";

import { formatBytes, isApkName, uploadErrorText, versionFileName } from "./version-utils";

describe("version upload helpers", () => {
  it("accepts only .apk names (spec §5)", () => {
    expect(isApkName("app-release.apk")).toBe(true);
    expect(isApkName("APP.APK")).toBe(true);
    expect(isApkName("notes.txt")).toBe(false);
    expect(isApkName("app.apk.zip")).toBe(false);
  });

  it("shows the server's message, else its error, else 'Upload failed' (spec §7, §8)", () => {
    expect(uploadErrorText({ success: false, error: "Version code 3 already exists", message: "Version code 3 already exists" })).toBe(
      "Version code 3 already exists",
    );
    expect(uploadErrorText({ success: false, error: "Forbidden" })).toBe("Forbidden");
    expect(uploadErrorText(null)).toBe("Upload failed");
    expect(uploadErrorText({ message: "  " })).toBe("Upload failed");
  });

  it("names files as the server does (spec §9)", () => {
    expect(versionFileName({ version_code: 12, version_name: "1.2 beta" })).toBe("app_v12_1.2_beta.apk");
  });

  it("formats sizes", () => {
    expect(formatBytes(512)).toBe("512 B");
    expect(formatBytes(512 * 1024)).toBe("512 KB");
    expect(formatBytes(3.5 * 1024 * 1024)).toBe("3.5 MB");
  });
});
