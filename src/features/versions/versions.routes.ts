import { adminOnly, restRouter, type CtxOf } from '../../http/rest';
import { idSchema } from '../../http/record-id';
import { parseInput } from '../../http/validate';
import { APK_CONTENT_TYPE, deleteVersion, downloadLatestVersion, downloadVersion, uploadVersion, versionsOverview, type VersionDownload } from './versions.service';


function fileResponse(download: VersionDownload): Response {
  return new Response(download.body as unknown as BodyInit, {
    headers: {
      'Content-Type': APK_CONTENT_TYPE,
      'Content-Length': String(download.size),
      'Content-Disposition': `attachment; filename="${download.filename}"`,
      'Cache-Control': 'no-store',
    },
  });
}

/** DESIGN §4 /api/update/*: upload (multipart, streamed), list, download, latest (public), delete. */
export function versionsRoutes(ctxOf: CtxOf) {
  const r = restRouter();
  const admin = adminOnly(ctxOf);
  r.get('/api/update/list', admin, async (c) => c.json(await versionsOverview(await ctxOf(c)), 200, { 'Cache-Control': 'no-store' }));
  r.post('/api/update/upload', admin, async (c) => {
    const version = await uploadVersion(await ctxOf(c), c.req.raw);
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

