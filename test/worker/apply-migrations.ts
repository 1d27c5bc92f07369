import { applyD1Migrations, env } from 'cloudflare:test';
import { readPdfFontsFrom } from '../../src/platform/pdf-font';
import { pdfFontsFromAssets } from '../../src/platform/pdf-font-source';

const bindings = env as unknown as {
  DB: Parameters<typeof applyD1Migrations>[0];
  TEST_MIGRATIONS: Parameters<typeof applyD1Migrations>[1];
  ASSETS: { fetch(request: Request): Promise<Response> };
};
await applyD1Migrations(bindings.DB, bindings.TEST_MIGRATIONS);
// Tests that make a PDF without a request read the font where the Worker does: its static assets (src/worker.ts).
readPdfFontsFrom(pdfFontsFromAssets((request) => bindings.ASSETS.fetch(request)));
