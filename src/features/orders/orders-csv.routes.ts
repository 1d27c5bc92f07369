import { describeRoute } from '../../http/openapi';
import { managementOnly, query, restRouter, type CtxOf } from '../../http/rest';
import { csvFileName, exportOrdersCsv } from './orders-csv';
import { orderFiltersSchema } from './orders.schemas';

/** GET /orders/export.csv: the orders of GET /orders, with the same filters, as a CSV download. */
export function ordersCsvRoutes(ctxOf: CtxOf) {
  const r = restRouter();
  r.get('/orders/export.csv', describeRoute({ file: 'text/csv' }), managementOnly(ctxOf), query(orderFiltersSchema), async (c) => {
    const ctx = await ctxOf(c);
    const csv = await exportOrdersCsv(ctx, c.req.valid('query'));
    // docs/decisions/029: streamed as the orders are read, never built whole in memory.
    return c.body(csv, 200, {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${csvFileName(ctx.clock.now())}"`,
      'Cache-Control': 'no-store',
    });
  });
  return r;
}
