import { desc, eq } from 'drizzle-orm';
import type { RequestCtx } from '../../context';
import { auditIfChanged } from '../audit/audit';
import { versions } from '../../db/schema';
import { AppError } from '../../http/errors';
import { boundaryOf, readMultipart } from '../../http/multipart';
import { randomBytes, toHex } from '../../platform/crypto';
import { requireAdmin } from '../auth/permissions';
import { STORAGE_FAILED, uploadLimitBytes, uploadTooLargeText } from './upload-limit';

/** DESIGN §3 APKs: `.apk` name, ZIP magic bytes, at most MAX_UPLOAD_MB, unique integer version_code. */
export const APK_CONTENT_TYPE = 'application/vnd.android.package-archive';
const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];
// spec §5 version upload messages.
export const FILL_ALL_FIELDS = 'Please fill all fields and select an APK file';
export const INVALID_APK = 'Please select a valid APK file';

export interface VersionView {
  id: number;
  version_name: string;
  version_code: number;
  created_at: string;
}

type VersionRow = typeof versions.$inferSelect;

function toView(row: VersionRow): VersionView {
  return { id: row.id, version_name: row.versionName, version_code: row.versionCode, created_at: row.createdAt };
}

/** Upload failures answer `{success:false, message}` (spec §7: the client reads `message`). */
function uploadError(status: 400 | 409 | 413 | 503, text: string): AppError {
  return new AppError(status, text, { message: text });
}

/** Newest first, by version code (DESIGN §3). */
export async function listVersions(ctx: RequestCtx): Promise<VersionView[]> {
  requireAdmin(ctx);
  const rows = await ctx.db.select().from(versions).orderBy(desc(versions.versionCode));
  return rows.map(toView);
}

/** The versions screen: the list and the upload limit, so the upload dialog can name it before sending. */
export async function versionsOverview(ctx: RequestCtx): Promise<{ versions: VersionView[]; max_upload_mb: number }> {
  return { versions: await listVersions(ctx), max_upload_mb: ctx.config.maxUploadMb };
}

/**
 * Counts the request body as it is read and fails it past `limit` bytes: the same rule as Content-Length,
 * for a body sent without one (chunked), and for one whose Content-Length understates it.
 */
function limitBody(body: ReadableStream<Uint8Array> | null, limit: number, tooLarge: () => Error): ReadableStream<Uint8Array> | null {
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

async function codeTaken(ctx: RequestCtx, code: number): Promise<boolean> {
  const [row] = await ctx.db.select({ id: versions.id }).from(versions).where(eq(versions.versionCode, code)).limit(1);
  return !!row;
}

function parseCode(text: string | undefined): number | null {
  const trimmed = text?.trim() ?? '';
  if (!/^\d{1,10}$/.test(trimmed)) return null;
  const code = Number(trimmed);
  return code >= 1 && code <= 2_147_483_647 ? code : null;
}

/**
 * Streams the multipart upload (`apk_file`, `version_code`, `version_name`) straight into file storage
 * under a fresh key, then writes the row. Any failure removes the file, so a row and its file never
 * diverge (issue 4).
 */
export async function uploadVersion(ctx: RequestCtx, request: Request): Promise<VersionView> {
  requireAdmin(ctx);
  // Cloudflare's edge counts the whole request body against its plan limit, so the same is counted here.
  const limit = uploadLimitBytes(ctx.config.maxUploadMb);
  const tooLarge = () => uploadError(413, uploadTooLargeText(ctx.config.maxUploadMb));
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > limit) throw tooLarge();
  const boundary = boundaryOf(request.headers.get('content-type'));

  const fields = new Map<string, string>();
  const fileKey = `apks/${toHex(randomBytes(16))}.apk`;
  let sawFile = false;
  let current: { kind: 'field'; name: string; text: string } | { kind: 'file' } | { kind: 'skip' } | null = null;
  // The file's way into storage, set when its part begins (an object, as the handlers fill it in).
  const file: { writer: WritableStreamDefaultWriter<Uint8Array> | null; stored: Promise<{ size: number }> | null } = { writer: null, stored: null };
  let head = new Uint8Array(0);
  let size = 0;
  // Any failure on the way into storage (a write, the close, the store's own put, part upload or
  // complete) is the store's: logged, answered 503, and undone below. The race ends a write that would
  // wait forever on a store that failed and stopped reading.
  const intoStore = async (work: Promise<unknown>) => {
    try {
      await Promise.race([work, file.stored!.then(() => work)]);
    } catch (error) {
      ctx.log.error('Storing an APK failed', { requestId: ctx.requestId, fileKey, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
      throw uploadError(503, STORAGE_FAILED);
    }
  };

  try {
    await readMultipart(limitBody(request.body, limit, tooLarge), boundary, {
      onPart: async (part) => {
        if (part.filename !== undefined) {
          if (part.name !== 'apk_file' || sawFile) {
            current = { kind: 'skip' };
            return;
          }
          if (part.filename === '') {
            current = { kind: 'skip' };
            return;
          }
          if (!/\.apk$/i.test(part.filename)) throw uploadError(400, INVALID_APK);
          const code = parseCode(fields.get('version_code'));
          if (code !== null && (await codeTaken(ctx, code))) throw uploadError(409, `Version code ${code} already exists`);
          sawFile = true;
          const pipe = new TransformStream<Uint8Array, Uint8Array>();
          file.writer = pipe.writable.getWriter();
          file.stored = ctx.files.put(fileKey, pipe.readable, { contentType: APK_CONTENT_TYPE });
          // Keep the rejection handled until it is awaited below.
          file.stored.catch(() => undefined);
          current = { kind: 'file' };
          return;
        }
        current = { kind: 'field', name: part.name, text: '' };
      },
      onData: async (chunk) => {
        const part = current;
        if (!part || part.kind === 'skip') return;
        if (part.kind === 'field') {
          part.text += new TextDecoder().decode(chunk);
          if (part.text.length > 1000) throw uploadError(400, 'A form field is too long');
          return;
        }
        size += chunk.length;
        if (head.length < ZIP_MAGIC.length) {
          const merged = new Uint8Array(head.length + chunk.length);
          merged.set(head, 0);
          merged.set(chunk, head.length);
          head = merged.slice(0, ZIP_MAGIC.length);
          if (head.length === ZIP_MAGIC.length && ZIP_MAGIC.some((b, i) => head[i] !== b)) throw uploadError(400, INVALID_APK);
        }
        await intoStore(file.writer!.write(chunk));
      },
      onPartEnd: async () => {
        const part = current;
        if (part?.kind === 'field') fields.set(part.name, part.text);
        if (part?.kind === 'file') {
          if (head.length < ZIP_MAGIC.length) throw uploadError(400, INVALID_APK);
          await intoStore(file.writer!.close());
          await intoStore(file.stored!);
        }
        current = null;
      },
    });
    const code = parseCode(fields.get('version_code'));
    const name = fields.get('version_name')?.trim() ?? '';
    if (!sawFile || name === '' || !fields.get('version_code')?.trim()) throw uploadError(400, FILL_ALL_FIELDS);
    if (code === null) throw uploadError(400, 'The version code must be a whole number from 1 to 2147483647');
    if (name.length > 100) throw uploadError(400, 'The version name is too long (at most 100 characters)');
    if (await codeTaken(ctx, code)) throw uploadError(409, `Version code ${code} already exists`);
    const [[row]] = await ctx.db.batch([
      ctx.db.insert(versions).values({ versionName: name, versionCode: code, fileKey, size, createdAt: ctx.clock.now().toISOString() }).onConflictDoNothing().returning(),
      auditIfChanged(ctx, { action: 'version.uploaded', target: `version:${code} (${name})`, details: { size } }),
    ]);
    if (!row) throw uploadError(409, `Version code ${code} already exists`);
    return toView(row);
  } catch (error) {
    // Stop the stream into storage, let the store clean up its partial write, then make sure nothing is
    // left. The abort is not awaited: it waits for a write in flight, which a failed store never takes.
    file.writer?.abort(error).catch(() => undefined);
    await file.stored?.catch(() => undefined);
    await ctx.files.delete(fileKey).catch(() => undefined);
    throw error;
  }
}

export interface VersionDownload {
  body: ReadableStream<Uint8Array>;
  size: number;
  filename: string;
}

/** spec §9 file names: app_v<code>_<name>.apk, with the name made safe for a header. */
export function downloadName(row: { versionCode: number; versionName: string }): string {
  return `app_v${row.versionCode}_${row.versionName.replace(/[^A-Za-z0-9._-]+/g, '_')}.apk`;
}

async function openFile(ctx: RequestCtx, row: VersionRow | undefined, filename: (row: VersionRow) => string): Promise<VersionDownload> {
  if (!row) throw new AppError(404, 'Version not found');
  const file = await ctx.files.get(row.fileKey);
  if (!file) throw new AppError(404, 'The APK file of this version is missing');
  return { body: file.body, size: file.size, filename: filename(row) };
}

export async function downloadVersion(ctx: RequestCtx, id: number): Promise<VersionDownload> {
  requireAdmin(ctx);
  const [row] = await ctx.db.select().from(versions).where(eq(versions.id, id)).limit(1);
  return openFile(ctx, row, downloadName);
}

/** Public: the app updates itself from here (DESIGN §3). */
export async function downloadLatestVersion(ctx: RequestCtx): Promise<VersionDownload> {
  const [row] = await ctx.db.select().from(versions).orderBy(desc(versions.versionCode)).limit(1);
  if (!row) throw new AppError(404, 'No version has been uploaded yet');
  return openFile(ctx, row, () => 'app_latest.apk');
}

/** Removes the row first: a failure after that leaves at worst an unused file, never a broken row. */
export async function deleteVersion(ctx: RequestCtx, id: number): Promise<void> {
  requireAdmin(ctx);
  const [existing] = await ctx.db.select().from(versions).where(eq(versions.id, id)).limit(1);
  if (!existing) throw new AppError(404, 'Version not found');
  const [[row]] = await ctx.db.batch([
    ctx.db.delete(versions).where(eq(versions.id, id)).returning(),
    auditIfChanged(ctx, { action: 'version.deleted', target: `version:${existing.versionCode} (${existing.versionName})` }),
  ]);
  if (!row) throw new AppError(404, 'Version not found');
  try {
    await ctx.files.delete(row.fileKey);
  } catch (error) {
    ctx.log.error('Deleting an APK file failed', { requestId: ctx.requestId, fileKey: row.fileKey, error: String(error) });
  }
}
