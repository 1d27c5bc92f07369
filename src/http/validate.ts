import * as z from 'zod';
import { AppError } from '../core/errors';
import { describeIssue, issueRefusal } from '../core/input-issues';

// Every zod parse in the app (REST, tRPC, config) gets these readable defaults.
z.config({ customError: describeIssue as never });

/** A failed parse as a refusal: the first issue's text, with the code of the rule it broke (docs/decisions/062). */
export function inputRefused(error: z.ZodError): AppError {
  const refusal = issueRefusal(error.issues[0]);
  return new AppError(refusal.code, refusal.message, refusal.extra);
}

/** Parses input with a zod schema; a failure is a 400 with the first issue's readable text. */
export function parseInput<T extends z.ZodType>(schema: T, data: unknown): z.output<T> {
  const result = schema.safeParse(data);
  if (!result.success) throw inputRefused(result.error);
  return result.data;
}

/** Largest JSON body the REST surface accepts (uploads have their own limit). */
export const MAX_JSON_BODY_BYTES = 256 * 1024;

/**
 * Reads a request body as text, counting bytes as they arrive: a body past MAX_JSON_BODY_BYTES is
 * refused with 413 without being buffered whole, whatever its Content-Length says.
 */
export async function readLimitedText(request: Request, maxBytes = MAX_JSON_BODY_BYTES): Promise<string> {
  const tooLarge = () => new AppError('BODY_TOO_LARGE', 'Request body too large');
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
  if (!isJsonContentType(request.headers.get('content-type'))) throw new AppError('UNSUPPORTED_MEDIA_TYPE', JSON_CONTENT_TYPE_REQUIRED);
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError('MALFORMED_JSON', 'Malformed JSON body');
  }
}
