// Downloads of files the server sends as attachments (APKs). A plain link cannot report a failure,
// so the file is fetched with the session cookie, checked, and saved under the server's file name.

/** The file name of a `Content-Disposition` header (RFC 6266: `filename*` wins over `filename`). */
export function fileNameFromContentDisposition(header: string | null | undefined): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(header);
  if (extended?.[2]) {
    try {
      const name = decodeURIComponent(extended[2].trim().replace(/^"|"$/g, ""));
      if (name) return baseName(name);
    } catch {
      // A malformed escape: fall back to the plain parameter.
    }
  }
  const quoted = /filename\s*=\s*"((?:[^"\\]|\\.)*)"/i.exec(header);
  if (quoted?.[1]) return baseName(quoted[1].replace(/\\(.)/g, "$1"));
  const bare = /filename\s*=\s*([^;\s]+)/i.exec(header);
  if (bare?.[1]) return baseName(bare[1]);
  return null;
}

/** Never lets a header choose a folder. */
function baseName(name: string): string {
  return name.split(/[\\/]/).pop() ?? name;
}

/** Hands a blob to the browser's download manager under `fileName`. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.rel = "noopener";
  link.style.display = "none";
  document.body.append(link);
  link.click();
  link.remove();
  // Give the download manager time to read the blob before it goes.
  window.setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * Fetches `url` with credentials and saves the answer under the server's file name (or
 * `fallbackName`). Throws when the server refuses or cannot be reached; returns the saved name.
 */
export async function downloadFile(url: string, fallbackName: string): Promise<string> {
  const response = await fetch(url, { credentials: "include" });
  if (!response.ok) throw new Error(`Download of ${url} failed with HTTP ${response.status}`);
  const blob = await response.blob();
  const fileName = fileNameFromContentDisposition(response.headers.get("Content-Disposition")) ?? fallbackName;
  saveBlob(blob, fileName);
  return fileName;
}
