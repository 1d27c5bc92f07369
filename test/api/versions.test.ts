import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { versions } from '../../src/db/schema';
import { STORAGE_FAILED } from '../../src/features/versions/upload-limit';
import type { VersionView } from '../../src/features/versions/versions.service';
import type { FileStore } from '../../src/platform/files';
import { createTestApp, type TestApp } from '../support/test-app';
import { buildTestApk } from '../support/zip';
import { encodedForm } from '../support/encoded-form';
import { anyCode } from '../support/refusal';

let t: TestApp;
let admin: string;
let plain: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.cookieFor('admin');
  await t.createUser('versions_plain');
  plain = await t.cookieFor('versions_plain');
});
afterAll(async () => t.close());
afterEach(() => expect(t.errors).toEqual([]));

function form(parts: { code?: string; name?: string; file?: { bytes: Uint8Array; filename: string } }, fileFirst = false) {
  const data = new FormData();
  const addFields = () => {
    if (parts.code !== undefined) data.append('version_code', parts.code);
    if (parts.name !== undefined) data.append('version_name', parts.name);
  };
  if (!fileFirst) addFields();
  if (parts.file) data.append('apk_file', new Blob([parts.file.bytes as Uint8Array<ArrayBuffer>]), parts.file.filename);
  if (fileFirst) addFields();
  return data;
}

async function upload(body: FormData | ReadableStream<Uint8Array>, cookie = admin, headers: Record<string, string> = {}, app = t) {
  const encoded = body instanceof FormData ? await encodedForm(body) : null;
  const response = await app.app.request('http://127.0.0.1/api/update/upload', {
    method: 'POST',
    headers: { cookie, ...(encoded ? { 'content-type': encoded.contentType } : {}), ...headers },
    body: encoded ? encoded.body : body,
    ...(encoded ? {} : { duplex: 'half' }),
  } as RequestInit);
  // `version` on success, `error` and `message` on failure.
  return { status: response.status, json: (await response.json()) as { success: boolean; version: VersionView; error?: string; message?: string } };
}

const apkDir = (app = t) => join(app.dir, 'apks');
const storedFiles = (app = t) => (existsSync(apkDir(app)) ? readdirSync(apkDir(app)) : []);
const rows = (app = t) => app.db.select().from(versions);

/** A multipart body sent as a stream without Content-Length: the APK part grows by `mib` chunks of 1 MiB. */
function streamedUpload(code: string, mib: number) {
  const boundary = 'kerstactieBoundary';
  const encoder = new TextEncoder();
  const head = encoder.encode(
    `--${boundary}\r\nContent-Disposition: form-data; name="version_code"\r\n\r\n${code}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="version_name"\r\nContent-Type: text/plain\r\n\r\nhuge\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="apk_file"; filename="huge.apk"\r\nContent-Type: application/octet-stream\r\n\r\nPK\u0003\u0004`,
  );
  const chunk = new Uint8Array(1024 * 1024);
  const progress = { sent: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (progress.sent === 0) controller.enqueue(head);
      if (progress.sent >= mib) return controller.close();
      progress.sent++;
      controller.enqueue(chunk);
    },
  });
  return { stream, progress, contentType: `multipart/form-data; boundary=${boundary}` };
}

describe('APK versions on Node (files on disk)', () => {
  it('uploads a real APK, lists it newest first and downloads it with its file name', async () => {
    const apk = buildTestApk();
    const first = await upload(form({ code: '3', name: '1.2.0', file: { bytes: apk, filename: 'kerstactie.apk' } }));
    expect(first.status).toBe(200);
    expect(first.json).toEqual({ success: true, version: { id: expect.any(Number), version_name: '1.2.0', version_code: 3, created_at: expect.any(String) } });
    const second = await upload(form({ code: '10', name: '1.3.0 beta', file: { bytes: buildTestApk(100), filename: 'NEW.APK' } }));
    expect(second.status).toBe(200);

    const list = await t.request('/api/update/list', { cookie: admin });
    expect(list.json.versions.map((v: { version_code: number }) => v.version_code)).toEqual([10, 3]);
    expect(storedFiles()).toHaveLength(2);

    const download = await t.app.request(`http://127.0.0.1/api/update/download?id=${first.json.version.id}`, { headers: { cookie: admin } });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/vnd.android.package-archive');
    expect(download.headers.get('content-length')).toBe(String(apk.length));
    expect(download.headers.get('content-disposition')).toBe('attachment; filename="app_v3_1.2.0.apk"');
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(apk);

    const latest = await t.app.request('http://127.0.0.1/api/update/latest');
    expect(latest.status).toBe(200);
    expect(latest.headers.get('content-disposition')).toBe('attachment; filename="app_latest.apk"');
    expect(latest.headers.get('content-length')).toBe(String(buildTestApk(100).length));

    const download10 = await t.app.request(`http://127.0.0.1/api/update/download?id=${second.json.version.id}`, { headers: { cookie: admin } });
    expect(download10.headers.get('content-disposition')).toBe('attachment; filename="app_v10_1.3.0_beta.apk"');
  });

  it('accepts the file before the fields too', async () => {
    const answer = await upload(form({ code: '20', name: '2.0', file: { bytes: buildTestApk(), filename: 'a.apk' } }, true));
    expect(answer.status).toBe(200);
    expect(answer.json.version.version_code).toBe(20);
  });

  it.each([
    [
      'a name that does not end in .apk',
      { code: '30', name: 'x', file: { bytes: buildTestApk(), filename: 'app.zip' } },
      400,
      'Please select a valid APK file',
    ],
    [
      'a file that is not a ZIP',
      { code: '31', name: 'x', file: { bytes: new TextEncoder().encode('not a zip at all'), filename: 'fake.apk' } },
      400,
      'Please select a valid APK file',
    ],
    [
      'a file of two bytes',
      { code: '32', name: 'x', file: { bytes: new Uint8Array([0x50, 0x4b]), filename: 'short.apk' } },
      400,
      'Please select a valid APK file',
    ],
    ['no file', { code: '33', name: 'x' }, 400, 'Please fill all fields and select an APK file'],
    ['no version name', { code: '34', file: { bytes: buildTestApk(), filename: 'a.apk' } }, 400, 'Please fill all fields and select an APK file'],
    ['no version code', { name: 'x', file: { bytes: buildTestApk(), filename: 'a.apk' } }, 400, 'Please fill all fields and select an APK file'],
    [
      'a version code that is not a whole number',
      { code: '1.5', name: 'x', file: { bytes: buildTestApk(), filename: 'a.apk' } },
      400,
      'The version code must be a whole number from 1 to 2147483647',
    ],
    ['a version code already used', { code: '3', name: 'again', file: { bytes: buildTestApk(), filename: 'a.apk' } }, 409, 'Version code 3 already exists'],
  ])('refuses %s and leaves neither row nor file', async (_what, parts, status, message) => {
    const before = { rows: (await rows()).length, files: storedFiles().length };
    const answer = await upload(form(parts));
    expect(answer.status).toBe(status);
    expect(answer.json).toMatchObject({ success: false, error: message, code: anyCode, message });
    expect((await rows()).length).toBe(before.rows);
    expect(storedFiles().length).toBe(before.files);
  });

  it('refuses an upload announced over the default limit of 100 MB before reading it', async () => {
    const message = 'The APK is larger than the upload limit of 100 MB (MAX_UPLOAD_MB).';
    const answer = await upload(form({ code: '40', name: 'big', file: { bytes: buildTestApk(), filename: 'a.apk' } }), admin, {
      'content-length': '100000001',
    });
    expect([answer.status, answer.json]).toMatchObject([413, { success: false, error: message, code: anyCode, message }]);
    expect((await rows()).some((r) => r.versionCode === 40)).toBe(false);
  });

  it('tells the admin screen the upload limit with the list, over REST and tRPC', async () => {
    expect((await t.request('/api/update/list', { cookie: admin })).json.max_upload_mb).toBe(100);
    expect((await t.request('/trpc/versions.list', { cookie: admin })).json.result.data.max_upload_mb).toBe(100);
  });

  describe('when the object store fails during an upload', () => {
    /** Wraps the real store: `put` fails the way the fake says; everything else goes to the real one. */
    function failingStore(real: FileStore, fail: (key: string, body: ReadableStream<Uint8Array>) => Promise<never>): FileStore {
      return {
        ...real,
        put: (key, body, options) => (body instanceof Uint8Array ? real.put(key, body, options) : fail(key, body)),
      };
    }

    it.each([
      [
        // Like an R2 part upload failing: part of the file was read, the store stops reading and says why.
        'a part fails after some of the file was read',
        (_real: FileStore) =>
          async (_key: string, body: ReadableStream<Uint8Array>): Promise<never> => {
            const reader = body.getReader();
            await reader.read();
            await reader.read();
            const error = new Error('uploadPart: We encountered an internal error. Please try again. (10001)');
            await reader.cancel(error);
            throw error;
          },
      ],
      [
        // A store that gives up without cancelling the stream must not leave the upload waiting forever.
        'the store stops reading without a word and then fails',
        (_real: FileStore) => async (): Promise<never> => {
          await new Promise((resolve) => setTimeout(resolve, 10));
          throw new Error('createMultipartUpload: connection reset');
        },
      ],
      [
        // Like R2's complete failing: the whole file was written, then the last step broke.
        'the final step fails after the whole file was written',
        (real: FileStore) =>
          async (key: string, body: ReadableStream<Uint8Array>): Promise<never> => {
            await real.put(key, body);
            throw new Error('completeMultipartUpload: internal error (10001)');
          },
      ],
    ])('answers 503 when %s, and keeps neither row nor file', async (_what, makeFailure) => {
      const real = t.deps.files;
      const before = { rows: (await rows()).length, files: storedFiles().length };
      t.deps.files = failingStore(real, makeFailure(real));
      try {
        const answer = await upload(form({ code: '45', name: '4.5', file: { bytes: buildTestApk(3 * 1024 * 1024), filename: 'a.apk' } }));
        expect([answer.status, answer.json]).toMatchObject([503, { success: false, error: STORAGE_FAILED, code: 'STORAGE_FAILED', message: STORAGE_FAILED }]);
      } finally {
        t.deps.files = real;
      }
      expect((await rows()).length).toBe(before.rows);
      expect(storedFiles().length).toBe(before.files);
      // The cause is logged for the operator; the admin sees only the text above.
      expect(t.errors).toHaveLength(1);
      expect(t.errors.splice(0)[0]).toMatch(/^Storing an APK failed \{"requestId":"[^"]+","fileKey":"apks\/[0-9a-f]{32}\.apk","error":"Error: /);
    });

    it('stores the APK normally once the store works again', async () => {
      const answer = await upload(form({ code: '45', name: '4.5', file: { bytes: buildTestApk(), filename: 'a.apk' } }));
      expect(answer.status).toBe(200);
      expect(answer.json.version.version_code).toBe(45);
    });
  });

  it('answers a body that is not multipart with 400', async () => {
    const answer = await t.request('/api/update/upload', { cookie: admin, body: { version_code: 1 } });
    expect(answer.status).toBe(400);
    expect(answer.json.error).toBe('Expected a multipart/form-data body');
  });

  it('keeps the admin calls for admins: anonymous 401, a plain user 403; latest stays public', async () => {
    for (const [cookie, status, error] of [
      ['', 401, 'Not logged in'],
      [plain, 403, 'Forbidden'],
    ] as const) {
      expect((await upload(form({ code: '50', name: 'x', file: { bytes: buildTestApk(), filename: 'a.apk' } }), cookie)).json).toMatchObject({
        success: false,
        error,
        code: anyCode,
      });
      const list = await t.request('/api/update/list', { cookie });
      expect([list.status, list.json]).toMatchObject([status, { success: false, error, code: anyCode }]);
      const download = await t.request('/api/update/download?id=1', { cookie });
      expect(download.status).toBe(status);
    }
    expect((await t.app.request('http://127.0.0.1/api/update/latest')).status).toBe(200);
  });

  it('answers 404 for an unknown id and 400 for a malformed one', async () => {
    expect((await t.request('/api/update/download?id=999', { cookie: admin })).json).toMatchObject({
      success: false,
      error: 'Version not found',
      code: 'VERSION_NOT_FOUND',
    });
    const bad = await t.request('/api/update/download?id=abc', { cookie: admin });
    expect([bad.status, bad.json]).toMatchObject([400, { success: false, error: 'Invalid id', code: 'FIELD_INVALID' }]);
  });

  it('deletes a version with its file', async () => {
    const created = await upload(form({ code: '60', name: 'gone', file: { bytes: buildTestApk(), filename: 'a.apk' } }));
    const before = storedFiles().length;
    const answer = await t.request(`/api/update/delete?id=${created.json.version.id}`, { cookie: admin, method: 'POST' });
    expect(answer.json).toEqual({ success: true });
    expect(storedFiles().length).toBe(before - 1);
    expect((await rows()).some((r) => r.versionCode === 60)).toBe(false);
    expect((await t.request(`/api/update/delete?id=${created.json.version.id}`, { cookie: admin, method: 'POST' })).status).toBe(404);
  });

  it('answers the tRPC list like the REST one', async () => {
    const answer = await t.request('/trpc/versions.list', { cookie: admin });
    expect(answer.json.result.data.versions[0].version_code).toBe(45);
  });
});

describe('APK versions with MAX_UPLOAD_MB=2', () => {
  let small: TestApp;
  let smallAdmin: string;
  const message = 'The APK is larger than the upload limit of 2 MB (MAX_UPLOAD_MB).';

  beforeAll(async () => {
    small = await createTestApp({ env: { MAX_UPLOAD_MB: '2' } });
    smallAdmin = await small.cookieFor('admin');
  });
  afterAll(async () => small.close());
  afterEach(() => expect(small.errors).toEqual([]));

  it('lists the configured limit for the upload dialog', async () => {
    expect((await small.request('/api/update/list', { cookie: smallAdmin })).json).toEqual({ versions: [], max_upload_mb: 2 });
  });

  it('accepts an APK just under 2 MB (2,000,000 bytes)', async () => {
    const apk = buildTestApk(1_999_000);
    expect(apk.length).toBeLessThan(2_000_000);
    const answer = await upload(form({ code: '1', name: '1.0', file: { bytes: apk, filename: 'a.apk' } }), smallAdmin, {}, small);
    expect(answer.status).toBe(200);
    expect(storedFiles(small)).toHaveLength(1);
  });

  it('refuses an APK of 2 MiB (more than 2 MB) with 413, naming the limit, keeping nothing', async () => {
    const answer = await upload(form({ code: '2', name: '2.0', file: { bytes: buildTestApk(2 * 1024 * 1024), filename: 'a.apk' } }), smallAdmin, {}, small);
    expect([answer.status, answer.json]).toMatchObject([413, { success: false, error: message, code: anyCode, message }]);
    expect(storedFiles(small)).toHaveLength(1);
    expect((await rows(small)).map((r) => r.versionCode)).toEqual([1]);
  });

  it('stops a streamed upload without Content-Length once it passes the limit, keeping nothing', async () => {
    const { stream, progress, contentType } = streamedUpload('3', 20);
    const answer = await upload(stream, smallAdmin, { 'content-type': contentType }, small);
    expect([answer.status, answer.json]).toMatchObject([413, { success: false, error: message, code: anyCode, message }]);
    // 2 MB is passed in the third MiB; the reading stopped there, not at the end of the 20 MiB.
    expect(progress.sent).toBeLessThan(6);
    expect(storedFiles(small)).toHaveLength(1);
    expect((await rows(small)).map((r) => r.versionCode)).toEqual([1]);
  });
});
