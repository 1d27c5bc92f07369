import type { Messages } from "@/i18n/catalogue";
import { translateRefusal } from "@/i18n/server-errors";
import type { RouterOutputs } from "@/lib/trpc";
import type { Locale } from "#src/core/locales";

// docs/product.md §3 "Version" and the REST file calls of docs/product.md §7 / docs/architecture.md §4 (files do not go through tRPC:
// they are streamed, and the upload reports progress).

export type Version = RouterOutputs["versions"]["list"]["versions"][number];

export const UPLOAD_URL = "/api/update/upload";
export const LATEST_URL = "/api/update/latest";
export const downloadUrl = (id: number) => `/api/update/download?id=${encodeURIComponent(String(id))}`;

/** docs/product.md §9 file names, used when the server's Content-Disposition cannot be read. */
export const versionFileName = (version: Pick<Version, "version_code" | "version_name">) =>
  `app_v${version.version_code}_${version.version_name.replace(/[^A-Za-z0-9._-]+/g, "_")}.apk`;
export const LATEST_FILE_NAME = "app_latest.apk";

export const APK_ACCEPT = ".apk,application/vnd.android.package-archive";

export const isApkName = (name: string) => /\.apk$/i.test(name.trim());

/**
 * '12.3 MB' style sizes for the chosen file, in decimal units like the upload limit (MAX_UPLOAD_MB), so a
 * file shown as 100.2 MB is visibly over a limit of 100 MB.
 */
export function formatBytes(bytes: number, locale: Locale = "en"): string {
  if (bytes < 1000) return `${bytes} B`;
  const units = ["KB", "MB", "GB"];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${Number(value.toFixed(1)).toLocaleString(locale === "nl" ? "nl-NL" : "en-GB")} ${units[unit]}`;
}

/**
 * The text of a failed upload: the server's `message` (docs/product.md §7), else its `error` (either in `locale`),
 * else 'Upload failed' (docs/product.md §5 "Version upload" and §8 "Versions", in `t`'s language).
 */
export function uploadErrorText(body: unknown, t: Messages, locale: Locale): string {
  if (body && typeof body === "object") {
    const { message, error, code, success: _success, ...values } = body as Record<string, unknown>;
    const text = [message, error].find((value): value is string => typeof value === "string" && value.trim() !== "");
    if (text !== undefined) return translateRefusal({ code: typeof code === "string" ? code : undefined, message: text, values }, locale);
  }
  return t.versions.upload.failed;
}
