import type { D1Database } from '@cloudflare/workers-types';
import { drizzle } from 'drizzle-orm/d1';
import { schema, type PlatformDb } from './client';

export function openD1Db(binding: D1Database): PlatformDb {
  // Same query builder and batch API as libSQL; only raw run() metadata differs, which services avoid.
  return drizzle(binding as never, { schema }) as unknown as PlatformDb;
}
