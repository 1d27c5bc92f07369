import { campaignYear } from '../../core/calendar';
import { describeRoute } from '../../http/openapi';
import { managementOnly, query, restRouter, type CtxOf } from '../../http/rest';
import { journalQuerySchema } from './books.schemas';
import { exportJournal } from './journal';

/** GET /orders/export/journal.csv: the accountant's journal of a year (DESIGN §6 "The books and safety"). */
export function booksRoutes(ctxOf: CtxOf) {
  const r = restRouter();
  r.get('/orders/export/journal.csv', describeRoute({ file: 'text/csv' }), managementOnly(ctxOf), query(journalQuerySchema), async (c) => {
    const ctx = await ctxOf(c);
    const year = c.req.valid('query').year ?? campaignYear(ctx.clock.now());
    const { csv } = await exportJournal(ctx, year);
    return c.body(csv, 200, {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="journaal-${year}.csv"`,
      'Cache-Control': 'no-store',
    });
  });
  return r;
}
