/**
 * A streaming multipart/form-data reader: parts arrive as headers plus data chunks, so an APK upload
 * flows to storage without ever being held in memory whole (docs/decisions/013). Runs on Node and in workerd.
 */
import { AppError } from '../core/errors';

export interface PartHeaders {
  name: string;
  filename: string | undefined;
  contentType: string | undefined;
}

export interface MultipartHandlers {
  /** Called for each part; data and end follow for that part. */
  onPart(part: PartHeaders): Promise<void> | void;
  onData(chunk: Uint8Array): Promise<void> | void;
  onPartEnd(): Promise<void> | void;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const MAX_HEADER_BYTES = 8 * 1024;

export function boundaryOf(contentType: string | null): string {
  const match = /^multipart\/form-data\s*;.*?boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? '');
  const boundary = match?.[1] ?? match?.[2];
  if (!boundary || boundary.length > 70) throw new AppError('NOT_MULTIPART', 'Expected a multipart/form-data body');
  return boundary;
}

function indexOf(haystack: Uint8Array, needle: Uint8Array, from = 0): number {
  const first = needle[0];
  outer: for (let i = haystack.indexOf(first!, from); i !== -1 && i <= haystack.length - needle.length; i = haystack.indexOf(first!, i + 1)) {
    for (let j = 1; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

function parseHeaders(block: string): PartHeaders {
  let disposition = '';
  let contentType: string | undefined;
  for (const line of block.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon === -1) continue;
    const key = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (key === 'content-disposition') disposition = value;
    else if (key === 'content-type') contentType = value;
  }
  const param = (name: string) => {
    const m = new RegExp(`;\\s*${name}=(?:"((?:[^"\\\\]|\\\\.)*)"|([^;]*))`, 'i').exec(disposition);
    const raw = m?.[1] ?? m?.[2]?.trim();
    return raw === undefined ? undefined : raw.replace(/\\(.)/g, '$1');
  };
  const name = param('name');
  if (!/^form-data/i.test(disposition) || name === undefined) throw new AppError('MALFORMED_MULTIPART', 'Malformed multipart body');
  return { name, filename: param('filename'), contentType };
}

type MultipartEvent = { type: 'part'; part: PartHeaders } | { type: 'data'; chunk: Uint8Array } | { type: 'end' };

/**
 * Reads the body, one event at a time: a part's headers, its data chunks, its end. Each waits until it
 * is taken (so slow storage slows the reading: back-pressure instead of buffering). Throws AppError(400)
 * for a malformed body.
 */
async function* multipartEvents(body: ReadableStream<Uint8Array> | null, boundary: string): AsyncGenerator<MultipartEvent> {
  if (!body) throw new AppError('MALFORMED_MULTIPART', 'Malformed multipart body');
  const opening = encoder.encode(`--${boundary}`);
  const delimiter = encoder.encode(`\r\n--${boundary}`);
  const reader = body.getReader();
  let buffer: Uint8Array = new Uint8Array(0);
  let state = 'preamble' as 'preamble' | 'headers' | 'body' | 'done';
  let eof = false;

  const fill = async (): Promise<boolean> => {
    if (eof) return false;
    const { done, value } = await reader.read();
    if (done) {
      eof = true;
      return false;
    }
    buffer = concat(buffer, value);
    return true;
  };

  try {
    while (state !== 'done') {
      if (state === 'preamble') {
        const at = indexOf(buffer, opening);
        if (at === -1) {
          if (buffer.length > MAX_HEADER_BYTES || !(await fill())) throw new AppError('MALFORMED_MULTIPART', 'Malformed multipart body');
          continue;
        }
        buffer = buffer.subarray(at + opening.length);
        state = 'headers';
      }
      if (state === 'headers') {
        // After a boundary: "--" ends the body, otherwise CRLF then the part's headers up to CRLFCRLF.
        while (buffer.length < 2 && (await fill()));
        if (buffer[0] === 45 && buffer[1] === 45) {
          state = 'done';
          break;
        }
        const end = indexOf(buffer, encoder.encode('\r\n\r\n'));
        if (end === -1) {
          if (buffer.length > MAX_HEADER_BYTES || !(await fill())) throw new AppError('MALFORMED_MULTIPART', 'Malformed multipart body');
          continue;
        }
        const block = decoder.decode(buffer.subarray(0, end)).replace(/^\r\n/, '');
        buffer = buffer.subarray(end + 4);
        yield { type: 'part', part: parseHeaders(block) };
        state = 'body';
      }
      if (state === 'body') {
        const at = indexOf(buffer, delimiter);
        if (at !== -1) {
          if (at > 0) yield { type: 'data', chunk: buffer.slice(0, at) };
          buffer = buffer.subarray(at + delimiter.length);
          yield { type: 'end' };
          state = 'headers';
          continue;
        }
        // Hand on all but a tail that could be the start of the delimiter.
        const keep = delimiter.length - 1;
        if (buffer.length > keep) {
          yield { type: 'data', chunk: buffer.slice(0, buffer.length - keep) };
          buffer = buffer.slice(buffer.length - keep);
        }
        if (!(await fill())) throw new AppError('MALFORMED_MULTIPART', 'Malformed multipart body');
      }
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

/**
 * Reads the body and calls the handlers in order, awaiting each (so slow storage slows the reading:
 * back-pressure instead of buffering). Throws AppError(400) for a malformed body.
 */
export async function readMultipart(body: ReadableStream<Uint8Array> | null, boundary: string, handlers: MultipartHandlers): Promise<void> {
  for await (const event of multipartEvents(body, boundary)) {
    if (event.type === 'part') await handlers.onPart(event.part);
    else if (event.type === 'data') await handlers.onData(event.chunk);
    else await handlers.onPartEnd();
  }
}

/** A part with its data as a stream, read (or left) before the next part is asked for. */
export interface FormPart extends PartHeaders {
  body: ReadableStream<Uint8Array>;
}

/**
 * The parts of the body one after another, each with its data as a stream that pulls from the body only
 * as it is read, so a file still flows to storage without being held whole. What a part's reader leaves
 * unread is skipped when the next part is asked for; the body's refusals (AppError 400) come out of the
 * reads and of the iteration.
 */
export async function* formParts(body: ReadableStream<Uint8Array> | null, boundary: string): AsyncGenerator<FormPart> {
  const events = multipartEvents(body, boundary);
  try {
    for (let next = await events.next(); !next.done; next = await events.next()) {
      // The rest of a part its reader left: skipped.
      if (next.value.type !== 'part') continue;
      let ended = false;
      const data = new ReadableStream<Uint8Array>(
        {
          async pull(controller) {
            const event = ended ? undefined : (await events.next()).value;
            if (event?.type === 'data') {
              controller.enqueue(event.chunk);
            } else {
              ended = true;
              controller.close();
            }
          },
        },
        // Nothing is read ahead: the body moves only when this part's reader asks.
        { highWaterMark: 0 },
      );
      yield { ...next.value.part, body: data };
      ended = true;
    }
  } finally {
    await events.return(undefined);
  }
}
