import { join } from 'node:path';
import { unstable_readConfig } from 'wrangler';

/**
 * The module aliases of wrangler.toml, for Vite's `resolve.alias` in the workerd test projects: the
 * Cloudflare test plugin bundles with Vite, which does not read them, and the tests must run the modules
 * the deployed bundle runs (e.g. the trimmed pdf-lib fonts).
 */
export function wranglerAliases(root: string): Record<string, string> {
  const config = unstable_readConfig({ config: join(root, 'wrangler.toml') });
  return Object.fromEntries(Object.entries(config.alias ?? {}).map(([from, to]) => [from, join(root, String(to))]));
}
