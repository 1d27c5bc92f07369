// The binding types that the generated Env (src/worker-env.d.ts, `npm run cf-typegen`) names, taken from
// @cloudflare/workers-types. They are not global in this project: the SPA and the Node code compile
// against the DOM's types, which the Workers runtime types would clash with.
type R2Bucket = import('@cloudflare/workers-types').R2Bucket;
type D1Database = import('@cloudflare/workers-types').D1Database;
type Fetcher = import('@cloudflare/workers-types').Fetcher;
