// Uploads that report progress. fetch() cannot tell how much of a request body has been sent, so
// file uploads go through XMLHttpRequest (with the session cookie, like every other call).

export type UploadResult = { status: number; body: unknown };

export type UploadOptions = {
  /** Called with 0–100 while the body is sent. */
  onProgress?: (percent: number) => void;
  signal?: AbortSignal;
};

/** Thrown when the request never got an answer (network failure or abort). */
export class UploadNetworkError extends Error {
  constructor(
    message: string,
    readonly aborted = false,
  ) {
    super(message);
    this.name = "UploadNetworkError";
  }
}

/** POSTs `form` to `url` and resolves with the status and the parsed JSON answer (null when not JSON). */
export function uploadWithProgress(url: string, form: FormData, { onProgress, signal }: UploadOptions = {}): Promise<UploadResult> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new UploadNetworkError("Upload aborted", true));
      return;
    }
    const xhr = new XMLHttpRequest();
    xhr.open("POST", url);
    xhr.withCredentials = true;
    xhr.responseType = "text";
    xhr.setRequestHeader("Accept", "application/json");
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(Math.round((event.loaded / event.total) * 100));
    };
    xhr.upload.onload = () => onProgress?.(100);
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : null;
      } catch {
        body = null;
      }
      resolve({ status: xhr.status, body });
    };
    xhr.onerror = () => reject(new UploadNetworkError("Upload failed: no answer from the server"));
    xhr.ontimeout = () => reject(new UploadNetworkError("Upload timed out"));
    const abort = () => xhr.abort();
    xhr.onabort = () => reject(new UploadNetworkError("Upload aborted", true));
    xhr.onloadend = () => signal?.removeEventListener("abort", abort);
    signal?.addEventListener("abort", abort, { once: true });
    xhr.send(form);
  });
}
