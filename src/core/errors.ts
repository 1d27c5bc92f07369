/**
 * Expected failures carry their HTTP status and the exact user-facing text. Each transport maps them
 * in one place (app.ts onError for REST, the tRPC error formatter); anything else is a logged 500.
 */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 429 | 500 | 503;

export class AppError extends Error {
  override name = 'AppError';
  constructor(
    readonly status: ErrorStatus,
    message: string,
    /** Extra fields of the JSON answer, e.g. `{ message }` for the upload call. */
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export const notLoggedIn = () => new AppError(401, 'Not logged in');
export const forbidden = () => new AppError(403, 'Forbidden');
export const badRequest = (message: string) => new AppError(400, message);
export const notFound = (message = 'Not found') => new AppError(404, message);
export const tooManyRequests = (message = 'Too many requests. Please wait a moment and try again.') => new AppError(429, message);
export const maintenance = () => new AppError(503, 'Maintenance');
