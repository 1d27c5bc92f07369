import { encodeHexLowerCase } from '@oslojs/encoding';
import { desc, eq } from 'drizzle-orm';
import type { RequestCtx } from '../../context';
import { auditIfChanged } from '../audit/audit';
import { versions } from '../../db/schema';
import { AppError, type ErrorCode } from '../../core/errors';
import { randomBytes } from '../../platform/crypto';
import { requireAdmin } from '../auth/permissions';
import { STORAGE_FAILED, uploadTooLargeText } from './upload-limit';

/** docs/architecture.md §3 APKs: `.apk` name, ZIP magic bytes, at most MAX_UPLOAD_MB, unique integer version_code. */
export const APK_CONTENT_TYPE = 'application/vnd.android.package-archive';
const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];
// docs/product.md §5 version upload messages.
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

/** Upload failures answer `{success:false, message}` (docs/product.md §7: the client reads `message`). */
function uploadError(code: ErrorCode, text: string, values?: Record<string, unknown>): AppError {
  return new AppError(code, text, { message: text, ...values });
}

/** The refusal of an upload past MAX_UPLOAD_MB, whether its Content-Length says so or its bytes do. */
export function uploadTooLarge(maxUploadMb: number): AppError {
  return uploadError('UPLOAD_TOO_LARGE', uploadTooLargeText(maxUploadMb), { max_mb: maxUploadMb });
}

/** One part of the upload form, as the route reads it from the request: its name, file name and bytes. */
export interface UploadPart {
  name: string;
  /** Set (maybe empty) for a file part, undefined for a text field. */
  filename: string | undefined;
  body: ReadableStream<Uint8Array>;
}

/** Newest first, by version code (docs/architecture.md §3). */
export async function listVersions(ctx: RequestCtx): Promise<VersionView[]> {
  requireAdmin(ctx);
  const rows = await ctx.db.select().from(versions).orderBy(desc(versions.versionCode));
  return rows.map(toView);
}

/** The versions screen: the list and the upload limit, so the upload dialog can name it before sending. */
export async function versionsOverview(ctx: RequestCtx): Promise<{ versions: VersionView[]; max_upload_mb: number }> {
  return { versions: await listVersions(ctx), max_upload_mb: ctx.config.maxUploadMb };
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

/** A text field's value, refused past 1000 characters (it is read whole). */
async function fieldText(body: ReadableStream<Uint8Array>): Promise<string> {
  let text = '';
  for await (const chunk of body) {
    text += new TextDecoder().decode(chunk);
    if (text.length > 1000) throw uploadError('UPLOAD_FIELD_TOO_LONG', 'A form field is too long');
  }
  return text;
}

/**
 * Streams the upload form's parts (`apk_file`, `version_code`, `version_name`) straight into file storage
 * under a fresh key, then writes the row. Any failure removes the file, so a row and its file never
 * diverge (docs/decisions/013). The route reads the request (its size limit and multipart framing); a part's data
 * is pulled from the request only as it is read here.
 */
export async function uploadVersion(ctx: RequestCtx, parts: AsyncIterable<UploadPart>): Promise<VersionView> {
  requireAdmin(ctx);
  const fields = new Map<string, string>();
  const fileKey = `apks/${encodeHexLowerCase(randomBytes(16))}.apk`;
  let sawFile = false;
  // The file's way into storage, set when its part begins.
  let writer: WritableStreamDefaultWriter<Uint8Array> | null = null;
  let stored: Promise<{ size: number }> | null = null;
  let head = new Uint8Array(0);
  let size = 0;
  // Any failure on the way into storage (a write, the close, the store's own put, part upload or
  // complete) is the store's: logged, answered 503, and undone below. The race ends a write that would
  // wait forever on a store that failed and stopped reading.
  const intoStore = async (work: Promise<unknown>) => {
    try {
      await Promise.race([work, stored!.then(() => work)]);
    } catch (error) {
      ctx.log.error('Storing an APK failed', {
        requestId: ctx.requestId,
        fileKey,
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      });
      throw uploadError('STORAGE_FAILED', STORAGE_FAILED);
    }
  };

  try {
    for await (const part of parts) {
      if (part.filename === undefined) {
        fields.set(part.name, await fieldText(part.body));
        continue;
      }
      // Another file, a second APK or an empty file input: skipped.
      if (part.name !== 'apk_file' || sawFile || part.filename === '') continue;
      if (!/\.apk$/i.test(part.filename)) throw uploadError('APK_INVALID', INVALID_APK);
      const code = parseCode(fields.get('version_code'));
      if (code !== null && (await codeTaken(ctx, code))) throw uploadError('VERSION_CODE_TAKEN', `Version code ${code} already exists`, { version_code: code });
      sawFile = true;
      const pipe = new TransformStream<Uint8Array, Uint8Array>();
      writer = pipe.writable.getWriter();
      stored = ctx.files.put(fileKey, pipe.readable, { contentType: APK_CONTENT_TYPE });
      // Keep the rejection handled until it is awaited below.
      stored.catch(() => undefined);
      for await (const chunk of part.body) {
        size += chunk.length;
        if (head.length < ZIP_MAGIC.length) {
          const merged = new Uint8Array(head.length + chunk.length);
          merged.set(head, 0);
          merged.set(chunk, head.length);
          head = merged.slice(0, ZIP_MAGIC.length);
          if (head.length === ZIP_MAGIC.length && ZIP_MAGIC.some((b, i) => head[i] !== b)) throw uploadError('APK_INVALID', INVALID_APK);
        }
        await intoStore(writer.write(chunk));
      }
      if (head.length < ZIP_MAGIC.length) throw uploadError('APK_INVALID', INVALID_APK);
      await intoStore(writer.close());
      await intoStore(stored);
    }
    const code = parseCode(fields.get('version_code'));
    const name = fields.get('version_name')?.trim() ?? '';
    if (!sawFile || name === '' || !fields.get('version_code')?.trim()) throw uploadError('UPLOAD_INCOMPLETE', FILL_ALL_FIELDS);
    if (code === null) throw uploadError('VERSION_CODE_INVALID', 'The version code must be a whole number from 1 to 2147483647');
    if (name.length > 100) throw uploadError('VERSION_NAME_TOO_LONG', 'The version name is too long (at most 100 characters)');
    if (await codeTaken(ctx, code)) throw uploadError('VERSION_CODE_TAKEN', `Version code ${code} already exists`, { version_code: code });
    const [[row]] = await ctx.db.batch([
      ctx.db
        .insert(versions)
        .values({ versionName: name, versionCode: code, fileKey, size, createdAt: ctx.clock.now().toISOString() })
        .onConflictDoNothing()
        .returning(),
      auditIfChanged(ctx, { action: 'version.uploaded', target: `version:${code} (${name})`, details: { size } }),
    ]);
    if (!row) throw uploadError('VERSION_CODE_TAKEN', `Version code ${code} already exists`, { version_code: code });
    return toView(row);
  } catch (error) {
    // Stop the stream into storage, let the store clean up its partial write, then make sure nothing is
    // left. The abort is not awaited: it waits for a write in flight, which a failed store never takes.
    writer?.abort(error).catch(() => undefined);
    await stored?.catch(() => undefined);
    await ctx.files.delete(fileKey).catch(() => undefined);
    throw error;
  }
}

export interface VersionDownload {
  body: ReadableStream<Uint8Array>;
  size: number;
  filename: string;
}

/** docs/product.md §9 file names: app_v<code>_<name>.apk, with the name made safe for a header. */
export function downloadName(row: { versionCode: number; versionName: string }): string {
  return `app_v${row.versionCode}_${row.versionName.replace(/[^A-Za-z0-9._-]+/g, '_')}.apk`;
}

async function openFile(ctx: RequestCtx, row: VersionRow | undefined, filename: (row: VersionRow) => string): Promise<VersionDownload> {
  if (!row) throw new AppError('VERSION_NOT_FOUND', 'Version not found');
  const file = await ctx.files.get(row.fileKey);
  if (!file) throw new AppError('FILE_MISSING', 'The APK file of this version is missing');
  return { body: file.body, size: file.size, filename: filename(row) };
}

export async function downloadVersion(ctx: RequestCtx, id: number): Promise<VersionDownload> {
  requireAdmin(ctx);
  const [row] = await ctx.db.select().from(versions).where(eq(versions.id, id)).limit(1);
  return openFile(ctx, row, downloadName);
}

/** Public: the app updates itself from here (docs/architecture.md §3). */
export async function downloadLatestVersion(ctx: RequestCtx): Promise<VersionDownload> {
  const [row] = await ctx.db.select().from(versions).orderBy(desc(versions.versionCode)).limit(1);
  if (!row) throw new AppError('NO_VERSION', 'No version has been uploaded yet');
  return openFile(ctx, row, () => 'app_latest.apk');
}

/** Removes the row first: a failure after that leaves at worst an unused file, never a broken row. */
export async function deleteVersion(ctx: RequestCtx, id: number): Promise<void> {
  requireAdmin(ctx);
  const [existing] = await ctx.db.select().from(versions).where(eq(versions.id, id)).limit(1);
  if (!existing) throw new AppError('VERSION_NOT_FOUND', 'Version not found');
  const [[row]] = await ctx.db.batch([
    ctx.db.delete(versions).where(eq(versions.id, id)).returning(),
    auditIfChanged(ctx, { action: 'version.deleted', target: `version:${existing.versionCode} (${existing.versionName})` }),
  ]);
  if (!row) throw new AppError('VERSION_NOT_FOUND', 'Version not found');
  try {
    await ctx.files.delete(row.fileKey);
  } catch (error) {
    ctx.log.error('Deleting an APK file failed', { requestId: ctx.requestId, fileKey: row.fileKey, error: String(error) });
  }
}
