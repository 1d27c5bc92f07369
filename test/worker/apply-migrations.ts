import { applyD1Migrations, env } from 'cloudflare:test';

const bindings = env as unknown as { DB: Parameters<typeof applyD1Migrations>[0]; TEST_MIGRATIONS: Parameters<typeof applyD1Migrations>[1] };
await applyD1Migrations(bindings.DB, bindings.TEST_MIGRATIONS);
