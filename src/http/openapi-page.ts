/**
 * GET /api/docs: the OpenAPI document as one HTML page written on the server, with no script and nothing from
 * elsewhere, so it works offline and under the site's Content-Security-Policy (docs/decisions/061).
 */

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  $ref?: string;
};

interface Operation {
  tags: string[];
  'x-access'?: string;
  parameters?: { name: string; required: boolean; schema: Schema }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: Schema }> }>;
}

interface Document {
  info: { title: string; version: string; description: string };
  paths: Record<string, Record<string, Operation>>;
}

const html = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A schema as a short type, e.g. `{ id: number | string; force?: boolean }`. */
export function typeText(schema: Schema): string {
  if (schema.$ref) return schema.$ref.split('/').pop() ?? '';
  if ('const' in schema) return JSON.stringify(schema.const);
  if (schema.enum) return schema.enum.map((value) => JSON.stringify(value)).join(' | ');
  const options = schema.anyOf ?? schema.oneOf;
  if (options) return options.map(typeText).join(' | ');
  if (schema.properties) {
    const fields = Object.entries(schema.properties).map(([key, value]) => `${key}${schema.required?.includes(key) ? '' : '?'}: ${typeText(value)}`);
    return `{ ${fields.join('; ')} }`;
  }
  if (schema.items) return `${typeText(schema.items)}[]`;
  if (schema.format === 'binary') return 'file';
  if (schema.type) return [schema.type].flat().join(' | ');
  return 'any';
}

function operationHtml(method: string, path: string, op: Operation): string {
  const row = (...cells: string[]) => `<tr><td>${cells.join('</td><td>')}</td></tr>`;
  const rows = (op.parameters ?? []).map((p) =>
    row('query', `<code>${html(p.name)}${p.required ? '' : '?'}</code>`, `<code>${html(typeText(p.schema))}</code>`),
  );
  const media = (content: Record<string, { schema: Schema }> = {}) =>
    Object.entries(content).map(([type, { schema }]) => (type === 'application/json' ? `<code>${html(typeText(schema))}</code>` : html(type)));
  for (const shape of media(op.requestBody?.content)) rows.push(row('body', shape));
  for (const [status, answer] of Object.entries(op.responses)) rows.push(row(status, html(answer.description), ...media(answer.content)));
  return `<details><summary><b>${method.toUpperCase()}</b> <code>${html(path)}</code> <i>${html(op['x-access'] ?? '')}</i></summary><table>${rows.join('')}</table></details>`;
}

export function referencePage(doc: Document): string {
  const byTag = new Map<string, string[]>();
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) byTag.set(op.tags[0]!, [...(byTag.get(op.tags[0]!) ?? []), operationHtml(method, path, op)]);
  }
  const sections = [...byTag].map(([tag, ops]) => `<h2 id="${tag}">${tag}</h2>${ops.join('')}`);
  const nav = [...byTag.keys()].map((tag) => `<a href="#${tag}">${tag}</a>`).join(' · ');
  const title = html(doc.info.title);
  return `<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width"><meta name="robots" content="noindex"><title>${title}</title><style>body{font:15px system-ui;max-width:70rem;margin:auto;padding:1rem}b{display:inline-block;width:3.5rem}td{border-top:1px solid #ddd;padding:2px 8px;vertical-align:top}i{color:#666}</style><h1>${title} ${html(doc.info.version)}</h1><p>${html(doc.info.description)}</p><p><a href="openapi.json">openapi.json</a> · ${nav}</p>${sections.join('')}</html>`;
}
