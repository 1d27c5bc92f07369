/**
 * Whether a write failed on a unique index or key: libSQL, D1 and Turso all name the constraint in the message,
 * some only in the error's cause. Two requests racing for one name, number or key let the index decide.
 */
export function isUniqueViolation(error: unknown): boolean {
  return /UNIQUE/i.test(String((error as Error)?.message ?? error) + String((error as { cause?: unknown })?.cause ?? ''));
}
