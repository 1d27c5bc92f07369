import { idSchema } from '../../core/record-id';
import { boundaryOf, formParts } from '../../http/multipart';
import { adminOnly, attachmentResponse, restRouter, type CtxOf } from '../../http/rest';
import { limitedBody, parseInput } from '../../http/validate';
import { uploadLimitBytes } from './upload-limit';
import {
  APK_CONTENT_TYPE,
  deleteVersion,
  downloadLatestVersion,
  downloadVersion,
  uploadTooLarge,
  uploadVersion,
  versionsOverview,
  type VersionDownload,
} from './versions.service';

function fileResponse(download: VersionDownload): Response {
  return attachmentResponse(download.body, { contentType: APK_CONTENT_TYPE, size: download.size, filename: download.filename });
}

/** docs/architecture.md §4 /api/update/*: upload (multipart, streamed), list, download, latest (public), delete. */
export function versionsRoutes(ctxOf: CtxOf) {
  const r = restRouter();
  const admin = adminOnly(ctxOf);
  r.get('/api/update/list', admin, async (c) => c.json(await versionsOverview(await ctxOf(c)), 200, { 'Cache-Control': 'no-store' }));
  r.post('/api/update/upload', admin, async (c) => {
    const ctx = await ctxOf(c);
    // Cloudflare's edge counts the whole request body against its plan limit, so the same is counted here.
    const limit = uploadLimitBytes(ctx.config.maxUploadMb);
    const tooLarge = () => uploadTooLarge(ctx.config.maxUploadMb);
    if (Number(c.req.header('content-length') ?? '0') > limit) throw tooLarge();
    const boundary = boundaryOf(c.req.header('content-type') ?? null);
    const version = await uploadVersion(ctx, formParts(limitedBody(c.req.raw.body, limit, tooLarge), boundary));
    return c.json({ success: true, version });
  });
  r.get('/api/update/download', admin, async (c) => {
    const { id } = parseInput(idSchema, { id: c.req.query('id') });
    return fileResponse(await downloadVersion(await ctxOf(c), id));
  });
  r.get('/api/update/latest', async (c) => fileResponse(await downloadLatestVersion(await ctxOf(c))));
  r.post('/api/update/delete', admin, async (c) => {
    const { id } = parseInput(idSchema, { id: c.req.query('id') });
    await deleteVersion(await ctxOf(c), id);
    return c.json({ success: true });
  });
  return r;
}
