import { ERROR_STATUS, type ErrorCode, type ErrorStatus } from './error-codes';

export type { ErrorCode, ErrorStatus } from './error-codes';

/**
 * Expected failures carry their stable code (the status follows from it, src/core/error-codes.ts) and the exact
 * user-facing text. Each transport maps them in one place (app.ts onError for REST, the tRPC error formatter);
 * anything else is a logged 500.
 */
export class AppError extends Error {
  override name = 'AppError';
  readonly status: ErrorStatus;
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Extra fields of the answer: the values in the text (`min_length`, `field`), or `{ message }` for the upload call. */
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
    this.status = ERROR_STATUS[code];
  }
}

/** The JSON body of a refusal on the REST surface: `{success:false, error, code}` and the refusal's values. */
export function refusalBody(code: ErrorCode, error: string, extra?: Record<string, unknown>) {
  return { success: false as const, error, code, ...extra };
}

export const notLoggedIn = () => new AppError('NOT_LOGGED_IN', 'Not logged in');
export const forbidden = () => new AppError('FORBIDDEN', 'Forbidden');
export const maintenance = () => new AppError('MAINTENANCE', 'Maintenance');
