import { AppError } from '../../core/errors';
import { boundaryOf, readMultipart } from '../../http/multipart';
import * as z from 'zod';
import { describeRoute } from '../../http/openapi';
import { jsonBody, managementOnly, query, restRouter, type CtxOf } from '../../http/rest';
import { MAX_STATEMENT_BYTES, STATEMENT_TOO_LARGE } from './camt053';
import { listFollowUps, resolveFollowUp } from './follow-ups.service';
import { orderBalance } from './order-balance';
import { importIdSchema, importListSchema, orderLookupSchema, resolveFollowUpSchema } from './payments.schemas';
import { confirmImport, importEntries, importStatement, listImports } from './payments.service';

export const NO_STATEMENT_FILE = 'Kies een CAMT.053-bankafschrift (XML) om in te lezen.';
export const NOT_A_FORM_UPLOAD = 'Stuur het bankafschrift als formulier-upload (multipart/form-data) in het veld file.';

/** The upload's one field, for the contract only: readStatementUpload reads it from the stream. */
const statementForm = z.object({ file: z.string().meta({ format: 'binary' }) });

/** Room for the form's boundaries and part headers around a statement of the largest size. */
const FORM_OVERHEAD_BYTES = 64 * 1024;

/**
 * Reads the `file` part of a multipart upload into memory, at most MAX_STATEMENT_BYTES: the stream is
 * stopped at the first byte past it (413), whatever Content-Length says. Other parts are skipped.
 */
async function readStatementUpload(request: Request): Promise<{ filename: string; bytes: Uint8Array }> {
  if (Number(request.headers.get('content-length') ?? '0') > MAX_STATEMENT_BYTES + FORM_OVERHEAD_BYTES)
    throw new AppError('STATEMENT_TOO_LARGE', STATEMENT_TOO_LARGE);
  let boundary: string;
  try {
    boundary = boundaryOf(request.headers.get('content-type'));
  } catch {
    throw new AppError('NOT_A_FORM_UPLOAD', NOT_A_FORM_UPLOAD);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  let filename: string | null = null;
  let reading = false;
  try {
    await readMultipart(request.body, boundary, {
      onPart: (part) => {
        reading = part.name === 'file' && part.filename !== undefined && filename === null;
        if (reading) filename = part.filename ?? '';
      },
      onData: (chunk) => {
        if (!reading) return;
        size += chunk.length;
        if (size > MAX_STATEMENT_BYTES) throw new AppError('STATEMENT_TOO_LARGE', STATEMENT_TOO_LARGE);
        chunks.push(chunk);
      },
      onPartEnd: () => {
        reading = false;
      },
    });
  } catch (error) {
    // The shared reader's own refusals are in English; this screen speaks Dutch.
    if (error instanceof AppError && error.status === 400) throw new AppError('NOT_A_FORM_UPLOAD', NOT_A_FORM_UPLOAD);
    throw error;
  }
  if (filename === null) throw new AppError('NO_STATEMENT_FILE', NO_STATEMENT_FILE);
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return { filename, bytes };
}

/**
 * docs/architecture.md §5 payments: the statement upload (REST only, like the APK upload) and its confirmation;
 * the imports, the open follow-ups, their resolution and an order's paid-so-far (docs/decisions/057).
 */
export function paymentsRoutes(ctxOf: CtxOf) {
  const r = restRouter();
  const manager = managementOnly(ctxOf);
  r.post(
    '/api/payments/import',
    describeRoute({
      form: statementForm,
      answer: '{success:true,import_id,entries:[{entry_ref,booked_at,amount,counterparty,remittance,status,order_id?,reference?}],skipped:[]}',
    }),
    manager,
    async (c) => c.json(await importStatement(await ctxOf(c), await readStatementUpload(c.req.raw))),
  );
  r.post('/api/payments/confirm', describeRoute({ answer: '{success:true,marked_paid,follow_ups}' }), manager, jsonBody(importIdSchema), async (c) =>
    c.json(await confirmImport(await ctxOf(c), c.req.valid('json').import_id)),
  );
  r.get('/api/payments/imports', describeRoute({ answer: '{imports:[]} | {import,entries:[],skipped:[]}' }), manager, query(importListSchema), async (c) => {
    const { id } = c.req.valid('query');
    const ctx = await ctxOf(c);
    return c.json(id === undefined ? await listImports(ctx) : await importEntries(ctx, id));
  });
  r.get('/api/payments/follow-ups', describeRoute({ answer: '{follow_ups:[],total}' }), manager, async (c) => c.json(await listFollowUps(await ctxOf(c))));
  r.post(
    '/api/payments/follow-ups/resolve',
    describeRoute({ answer: '{success:true,resolution,order?}' }),
    manager,
    jsonBody(resolveFollowUpSchema),
    async (c) => c.json(await resolveFollowUp(await ctxOf(c), c.req.valid('json'))),
  );
  r.get('/api/payments/order', describeRoute({ answer: '{order,bookings:[]}' }), manager, query(orderLookupSchema), async (c) =>
    c.json(await orderBalance(await ctxOf(c), c.req.valid('query'))),
  );
  return r;
}
