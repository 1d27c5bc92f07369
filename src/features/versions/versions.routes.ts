import * as z from 'zod';
import { idSchema } from '../../core/record-id';
import { boundaryOf, formParts } from '../../http/multipart';
import { describeRoute, SUCCESS } from '../../http/openapi';
import { adminOnly, attachmentResponse, query, restRouter, type CtxOf } from '../../http/rest';
import { limitedBody } from '../../http/validate';
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

/** The upload's fields, for the contract only: the service reads them from the stream as they come. */
const uploadForm = z.object({ apk_file: z.string().meta({ format: 'binary' }), version_code: z.string(), version_name: z.string() });

function fileResponse(download: VersionDownload): Response {
  return attachmentResponse(download.body, { contentType: APK_CONTENT_TYPE, size: download.size, filename: download.filename });
}

/** /api/update/*: upload (multipart, streamed), list, download, latest (public), delete. */
export function versionsRoutes(ctxOf: CtxOf) {
  const r = restRouter();
  const admin = adminOnly(ctxOf);
  r.get('/api/update/list', describeRoute({ answer: '{versions:[{id,version_name,version_code,created_at}],max_upload_mb}' }), admin, async (c) =>
    c.json(await versionsOverview(await ctxOf(c)), 200, { 'Cache-Control': 'no-store' }),
  );
  r.post('/api/update/upload', describeRoute({ form: uploadForm, answer: '{success:true,version}' }), admin, async (c) => {
    const ctx = await ctxOf(c);
    // Cloudflare's edge counts the whole request body against its plan limit, so the same is counted here.
    const limit = uploadLimitBytes(ctx.config.maxUploadMb);
    const tooLarge = () => uploadTooLarge(ctx.config.maxUploadMb);
    if (Number(c.req.header('content-length') ?? '0') > limit) throw tooLarge();
    const boundary = boundaryOf(c.req.header('content-type') ?? null);
    const version = await uploadVersion(ctx, formParts(limitedBody(c.req.raw.body, limit, tooLarge), boundary));
    return c.json({ success: true, version });
  });
  r.get('/api/update/download', describeRoute({ file: APK_CONTENT_TYPE }), admin, query(idSchema), async (c) =>
    fileResponse(await downloadVersion(await ctxOf(c), c.req.valid('query').id)),
  );
  r.get('/api/update/latest', describeRoute({ access: 'public', file: APK_CONTENT_TYPE }), async (c) =>
    fileResponse(await downloadLatestVersion(await ctxOf(c))),
  );
  r.post('/api/update/delete', describeRoute({ answer: SUCCESS }), admin, query(idSchema), async (c) => {
    await deleteVersion(await ctxOf(c), c.req.valid('query').id);
    return c.json({ success: true });
  });
  return r;
}
