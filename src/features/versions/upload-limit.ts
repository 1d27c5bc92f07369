/**
 * The APK upload limit (MAX_UPLOAD_MB), shared by the upload service and the upload dialog so both say
 * the same. A megabyte is 10^6 bytes here: Cloudflare's edge limits (100 MB on Free and Pro, 200 MB on
 * Business, 500 MB on Enterprise) count the whole request body, and the decimal reading stays under them.
 */
export const uploadLimitBytes = (maxUploadMb: number): number => maxUploadMb * 1_000_000;

export const uploadTooLargeText = (maxUploadMb: number): string => `The APK is larger than the upload limit of ${maxUploadMb} MB (MAX_UPLOAD_MB).`;

export const maximumSizeText = (maxUploadMb: number): string => `Maximum size: ${maxUploadMb} MB`;

/** Any failure of the object store while an APK is stored: the upload is undone, so trying again is safe. */
export const STORAGE_FAILED = 'Storing the APK failed; nothing was saved. Try again.';
