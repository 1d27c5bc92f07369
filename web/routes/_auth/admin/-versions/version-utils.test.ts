import { describe, expect, it } from "vitest";

import { catalogues } from "@/i18n/catalogue";
import { maximumSizeText, uploadLimitBytes, uploadTooLargeText } from "#src/features/versions/upload-limit";
import { formatBytes, isApkName, uploadErrorText, versionFileName } from "./version-utils";

const en = catalogues.en;

describe("version upload helpers", () => {
  it("accepts only .apk names (docs/product.md §5)", () => {
    expect(isApkName("app-release.apk")).toBe(true);
    expect(isApkName("APP.APK")).toBe(true);
    expect(isApkName("notes.txt")).toBe(false);
    expect(isApkName("app.apk.zip")).toBe(false);
  });

  it("shows the server's message, else its error, else 'Upload failed' (docs/product.md §7, §8)", () => {
    expect(
      uploadErrorText({ success: false, error: "Version code 3 already exists", message: "Version code 3 already exists" }, en, "en"),
    ).toBe("Version code 3 already exists");
    expect(uploadErrorText({ success: false, error: "Forbidden" }, en, "en")).toBe("Forbidden");
    expect(uploadErrorText(null, en, "en")).toBe("Upload failed");
    expect(uploadErrorText({ message: "  " }, en, "en")).toBe("Upload failed");
    expect(uploadErrorText(null, catalogues.nl, "nl")).toBe("Uploaden mislukt");
  });

  it("shows a refusal in Dutch by its code, with the values the server sent (docs/decisions/062)", () => {
    const taken = {
      success: false,
      error: "Version code 3 already exists",
      code: "VERSION_CODE_TAKEN",
      message: "Version code 3 already exists",
      version_code: 3,
    };
    expect(uploadErrorText(taken, catalogues.nl, "nl")).toBe("Versiecode 3 bestaat al");
    expect(uploadErrorText({ success: false, error: "Forbidden", code: "FORBIDDEN" }, catalogues.nl, "nl")).toBe("Geen toegang");
  });

  it("names files as the server does (docs/product.md §9)", () => {
    expect(versionFileName({ version_code: 12, version_name: "1.2 beta" })).toBe("app_v12_1.2_beta.apk");
  });

  it("formats sizes in decimal units, as the upload limit counts them", () => {
    expect(formatBytes(512)).toBe("512 B");
    expect(formatBytes(512_000)).toBe("512 KB");
    expect(formatBytes(3_500_000)).toBe("3.5 MB");
    expect(formatBytes(12_345_678)).toBe("12.3 MB");
    expect(formatBytes(100_200_000)).toBe("100.2 MB");
    expect(formatBytes(3_500_000, "nl")).toBe("3,5 MB");
    expect(formatBytes(1_234_500_000, "nl")).toBe("1,2 GB");
  });

  it("names the upload limit as the server does", () => {
    expect(maximumSizeText(100)).toBe("Maximum size: 100 MB");
    expect(uploadTooLargeText(200)).toBe("The APK is larger than the upload limit of 200 MB (MAX_UPLOAD_MB).");
    expect(uploadLimitBytes(100)).toBe(100_000_000);
    // The dialog's own copies of these texts say the same in English.
    expect(en.versions.upload.maximumSize(100)).toBe(maximumSizeText(100));
    expect(en.versions.upload.tooLarge(200)).toBe(uploadTooLargeText(200));
  });
});
