import * as z from 'zod';
import { AppError } from '../core/errors';

type RawIssue = Parameters<Extract<NonNullable<Parameters<z.ZodType['safeParse']>[1]>['error'], (...args: never) => unknown>>[0];

/** Readable default messages naming the field; a schema's own message always wins over these. */
function describeIssue(issue: RawIssue): string | undefined {
  const path = issue.path ?? [];
  const field = path.length > 0 ? path.join('.') : 'input';
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return `${field} is required`;
      if (issue.expected === 'int') return `${field} must be an integer`;
      return `${field} must be ${/^[aeiou]/.test(String(issue.expected)) ? 'an' : 'a'} ${String(issue.expected)}`;
    case 'too_big':
      if (issue.origin === 'string') return `${field} is too long (at most ${String(issue.maximum)} characters)`;
      if (issue.origin === 'array') return `${field} has too many items (at most ${String(issue.maximum)})`;
      return `${field} must be at most ${String(issue.maximum)}`;
    case 'too_small':
      if (issue.origin === 'string') return `${field} is too short (at least ${String(issue.minimum)} characters)`;
      if (issue.origin === 'array') return `${field} needs at least ${String(issue.minimum)} items`;
      return `${field} must be at least ${String(issue.minimum)}`;
    case 'invalid_value':
      return `${field} must be one of: ${(issue.values as unknown[]).map(String).join(', ')}`;
    case 'invalid_format':
      return `${field} has an invalid format`;
    case 'unrecognized_keys':
      return `Unknown field: ${(issue.keys as string[]).join(', ')}`;
    default:
      return `${field} is invalid`;
  }
}

// Every zod parse in the app (REST, tRPC, config) gets these readable defaults.
z.config({ customError: describeIssue as never });

/** The first issue's text, e.g. for tRPC's BAD_REQUEST answers. */
export function firstIssueMessage(error: z.ZodError): string {
  return error.issues[0]?.message ?? 'Invalid input';
}

/** Parses input with a zod schema; a failure is a 400 with the first issue's readable text. */
export function parseInput<T extends z.ZodType>(schema: T, data: unknown): z.output<T> {
  const result = schema.safeParse(data);
  if (!result.success) throw new AppError(400, result.error.issues[0]?.message ?? 'Invalid input');
  return result.data;
}

/** Largest JSON body the REST surface accepts (uploads have their own limit). */
export const MAX_JSON_BODY_BYTES = 256 * 1024;

/**
 * Reads a request body as text, counting bytes as they arrive: a body past MAX_JSON_BODY_BYTES is
 * refused with 413 without being buffered whole, whatever its Content-Length says.
 */
export async function readLimitedText(request: Request, maxBytes = MAX_JSON_BODY_BYTES): Promise<string> {
  const tooLarge = () => new AppError(413, 'Request body too large');
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > maxBytes) throw tooLarge();
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

/**
 * Counts a request body as it is read and fails it past `limit` bytes: the same rule as Content-Length,
 * for a body sent without one (chunked), and for one whose Content-Length understates it.
 */
export function limitedBody(body: ReadableStream<Uint8Array> | null, limit: number, tooLarge: () => Error): ReadableStream<Uint8Array> | null {
  if (!body) return null;
  let total = 0;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        total += chunk.length;
        if (total > limit) throw tooLarge();
        controller.enqueue(chunk);
      },
    }),
  );
}

export const JSON_CONTENT_TYPE_REQUIRED = 'Content-Type must be application/json';

/** True for `application/json`, with or without parameters (`; charset=utf-8`), in any case. */
function isJsonContentType(header: string | null): boolean {
  return header !== null && header.split(';')[0]!.trim().toLowerCase() === 'application/json';
}

/**
 * Reads a JSON request body: empty → {}, not sent as application/json → 415, malformed → 400, too large →
 * 413. A browser sends text/plain (or a form type) across sites without asking first; only JSON's own
 * type cannot be sent that way, so a body under any other type is refused (docs/decisions/055).
 */
export async function readJsonBody(request: Request): Promise<unknown> {
  const text = await readLimitedText(request);
  if (text.trim() === '') return {};
  if (!isJsonContentType(request.headers.get('content-type'))) throw new AppError(415, JSON_CONTENT_TYPE_REQUIRED);
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError(400, 'Malformed JSON body');
  }
}
