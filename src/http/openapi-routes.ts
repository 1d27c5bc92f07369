import type { RouterRoute } from 'hono/types';
import { version } from '../../package.json';
import { describeRoute, openApiDocument } from './openapi';
import { referencePage } from './openapi-page';
import { restRouter } from './rest';

/**
 * GET /api/openapi.json and GET /api/docs (public): the contract of the routes the app has, written on the
 * first request (every route is mounted by then) and kept for the life of the process (docs/decisions/061).
 */
export function openApiRoutes(routes: () => readonly RouterRoute[], base: string) {
  const r = restRouter();
  let json: string | undefined;
  let page: string | undefined;
  const documentJson = () => {
    json ??= JSON.stringify(openApiDocument(routes(), base, version));
    return json;
  };
  r.get('/api/openapi.json', describeRoute({ access: 'public', answer: '{openapi,info,paths,components}' }), (c) =>
    c.body(documentJson(), 200, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-cache' }),
  );
  r.get('/api/docs', describeRoute({ access: 'public', file: 'text/html' }), (c) => {
    page ??= referencePage(JSON.parse(documentJson()));
    return c.html(page, 200, { 'Cache-Control': 'no-cache' });
  });
  return r;
}
