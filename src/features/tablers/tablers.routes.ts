import { describeRoute, SUCCESS } from '../../http/openapi';
import { jsonBody, managementOnly, query, restRouter, type CtxOf, attachmentResponse } from '../../http/rest';
import { idSchema } from '../../core/record-id';
import { sellerFlyer, sellerOfLink, tablerLink } from './seller-links.service';
import { matchSchema, sellerLinkSchema, tablerNameSchema } from './tablers.schemas';
import { createTabler, deleteTabler, listTablers, matchTabler, renameTabler } from './tablers.service';

/** Whose link a token is may change with a renewal: no cache keeps the answer. */
const NO_STORE = { 'Cache-Control': 'no-store' };

/**
 * /tablers (the list and its changes, mgmt), /tablers/match (the public gate), and the sellers' own links
 * (DESIGN §6 "The door", docs/decisions/070): a tabler's link, QR code and flyer (mgmt), and whose link a token is (public).
 */
export function tablersRoutes(ctxOf: CtxOf) {
  const r = restRouter();
  const manager = managementOnly(ctxOf);
  r.post('/tablers/create', describeRoute({ answer: '{success:true,tabler}' }), manager, jsonBody(tablerNameSchema), async (c) => {
    const tabler = await createTabler(await ctxOf(c), c.req.valid('json').name);
    return c.json({ success: true, tabler });
  });
  r.post('/tablers/update', describeRoute({ answer: '{success:true,tabler}' }), manager, query(idSchema), jsonBody(tablerNameSchema), async (c) => {
    const tabler = await renameTabler(await ctxOf(c), c.req.valid('query').id, c.req.valid('json').name);
    return c.json({ success: true, tabler });
  });
  r.post('/tablers/delete', describeRoute({ answer: SUCCESS }), manager, query(idSchema), async (c) => {
    await deleteTabler(await ctxOf(c), c.req.valid('query').id);
    return c.json({ success: true });
  });
  r.get('/tablers', describeRoute({ answer: '[{id,name,created_at,updated_at}]' }), manager, async (c) =>
    c.json(await listTablers(await ctxOf(c)), 200, { 'Cache-Control': 'no-store' }),
  );
  r.post('/tablers/match', describeRoute({ access: 'public', answer: '{success:true,tabler:{id,name},gate_token}' }), jsonBody(matchSchema), async (c) => {
    const match = await matchTabler(await ctxOf(c), c.req.valid('json').password);
    return c.json({ success: true, ...match });
  });
  r.post('/tablers/link', describeRoute({ answer: '{success:true,url,qr_png}' }), manager, query(idSchema), jsonBody(sellerLinkSchema), async (c) =>
    c.json(await tablerLink(await ctxOf(c), c.req.valid('query').id, c.req.valid('json').renew === true), 200, NO_STORE),
  );
  r.get('/tablers/link/flyer.pdf', describeRoute({ file: 'application/pdf' }), manager, query(idSchema), async (c) => {
    const { fileName, pdf } = await sellerFlyer(await ctxOf(c), c.req.valid('query').id);
    return attachmentResponse(pdf, { contentType: 'application/pdf', size: pdf.byteLength, filename: fileName });
  });
  r.get('/api/sellers/:token', describeRoute({ access: 'public', answer: '{tabler_id,tabler_name}' }), async (c) =>
    c.json(await sellerOfLink(await ctxOf(c), c.req.param('token')), 200, NO_STORE),
  );
  return r;
}
