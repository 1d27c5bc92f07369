import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { orders, sequences, users } from '../../src/db/schema';
import { createSession, sessionCookieName } from '../../src/features/auth/session';
import { LEGACY_MARKERS_DONE } from '../../src/features/invoices/invoice-series';
import { startNodeServer } from '../../src/node';
import { pdfText } from '../support/pdf-text';
import { attachmentsOf, parseMime, startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import { createTestApp } from '../support/test-app';
import { setSettings, VALID_INVOICE_SETTINGS } from '../support/invoice-settings';

/**
 * docs/decisions/049: an older database put back next to newer files. The series goes on past every number
 * it ever drew (its markers in DATA_DIR say which), and every PDF is reached through its own row, so no
 * customer is mailed, and no admin downloads, another customer's invoice.
 */

const parent = mkdtempSync(join(tmpdir(), 'kerstactie-restore-'));
afterAll(() => rmSync(parent, { recursive: true, force: true }));

let sink: SmtpSink;
beforeEach(async () => {
  sink = await startSmtpSink();
});
afterEach(async () => {
  await sink.stop();
});

/** `npm start` on the folder, as the operator would run it, with a signed-in admin. */
async function start(dataDir: string) {
  const server = await startNodeServer({
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    ADMIN_PASSWORD: 'restore-admin-password',
    SMTP_URL: sink.url,
  });
  const [admin] = await server.deps.db.select().from(users).where(eq(users.username, 'admin'));
  const { token } = await createSession(server.deps.db, server.deps.clock, admin!.id);
  const cookie = `${sessionCookieName(false)}=${token}`;
  async function request(path: string, body?: unknown) {
    const response = await server.app.request(`http://127.0.0.1${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return response;
  }
  const json = async (path: string, body: unknown = {}) => {
    const response = await request(path, body);
    const answer = (await response.json()) as Record<string, unknown>;
    expect(response.status, `${path}: ${JSON.stringify(answer)}`).toBe(200);
    return answer;
  };
  return { server, cookie, request, json };
}

type Running = Awaited<ReturnType<typeof start>>;

async function createOrder(app: Running, name: string, email: string): Promise<number> {
  const answer = await app.json('/orders/create', {
    name,
    email,
    phone: '0612345678',
    address: 'Voorstraat 9',
    postal_code: '8861 BJ',
    city: 'Harlingen',
    amount: 1,
  });
  const [row] = await app.server.deps.db
    .select({ id: orders.id })
    .from(orders)
    .where(eq(orders.reference, answer.order_reference as string));
  return row!.id;
}

const sequenceOf = (number: string) => Number(number.split('-')[1]);

/** The PDF of the last mail to `email`, as bytes and text. */
async function lastPdfMailedTo(email: string) {
  const mail = sink.messages.filter((m) => m.to.includes(email)).at(-1);
  expect(mail, `a mail to ${email}`).toBeDefined();
  const pdf = attachmentsOf(parseMime(mail!.raw)).find((a) => a.type === 'application/pdf')!;
  return { bytes: pdf.content, text: await pdfText(pdf.content) };
}

async function download(app: Running, path: string) {
  const response = await app.request(path);
  expect(response.status).toBe(200);
  const bytes = new Uint8Array(await response.arrayBuffer());
  return { bytes, text: await pdfText(bytes) };
}

describe('restoring an older database next to newer files (Node, DATA_DIR)', () => {
  it('draws numbers past every number ever used and never hands one customer another’s PDF', async () => {
    const dataDir = join(parent, 'club');
    const backup = join(parent, 'kerstactie-backup.db');
    let first: Running | null = await start(dataDir);
    let second: Running | null = null;
    try {
      for (const [key, value] of Object.entries(VALID_INVOICE_SETTINGS)) await first.json('/api/settings/update', { key, value });
      const anna = await createOrder(first, 'Anna Annema', 'anna@example.nl');
      const bert = await createOrder(first, 'Bert Bosma', 'bert@example.nl');
      const carla = await createOrder(first, 'Carla Cuperus', 'carla@example.nl');
      const dirk = await createOrder(first, 'Dirk Dijkstra', 'dirk@example.nl');
      const annaNumber = (await first.json(`/orders/sendInvoice?id=${anna}`)).invoice_number as string;
      const annaMailed = await lastPdfMailedTo('anna@example.nl');

      // The backup: a consistent copy of the database as it stands now.
      await first.server.database.run(sql`VACUUM INTO ${backup}`);

      // Life goes on: two more invoices and a credit note after the backup.
      const used = [annaNumber];
      used.push((await first.json(`/orders/sendInvoice?id=${bert}`)).invoice_number as string);
      used.push((await first.json(`/orders/sendInvoice?id=${carla}`)).invoice_number as string);
      used.push((await first.json(`/orders/creditInvoice?id=${carla}`)).credit_note_number as string);
      expect(used.map(sequenceOf)).toEqual([1, 2, 3, 4]);
      await first.server.close();
      first = null;

      // The restore: the backup goes back into DATA_DIR; the invoices folder and secret.key stay as they are.
      for (const suffix of ['', '-wal', '-shm']) rmSync(join(dataDir, `kerstactie.db${suffix}`), { force: true });
      copyFileSync(backup, join(dataDir, 'kerstactie.db'));
      second = await start(dataDir);

      // Dirk had no invoice at the backup, nor does he now: his number follows every number ever drawn.
      const dirkNumber = (await second.json(`/orders/sendInvoice?id=${dirk}`)).invoice_number as string;
      expect(sequenceOf(dirkNumber)).toBe(5);
      const dirkMailed = await lastPdfMailedTo('dirk@example.nl');
      expect(dirkMailed.text).toContain(`Factuurnummer ${dirkNumber}`);
      expect(dirkMailed.text).toContain('Dirk Dijkstra');
      for (const other of ['Bert Bosma', 'Carla Cuperus', 'Anna Annema']) expect(dirkMailed.text).not.toContain(other);

      // Bert's invoice of after the backup is gone from this database: his new one has a new number and is his.
      const bertNumber = (await second.json(`/orders/sendInvoice?id=${bert}`)).invoice_number as string;
      expect(sequenceOf(bertNumber)).toBe(6);
      const bertMailed = await lastPdfMailedTo('bert@example.nl');
      expect(bertMailed.text).toContain(`Factuurnummer ${bertNumber}`);
      expect(bertMailed.text).toContain('Bert Bosma');

      // A resend of Anna's invoice from before the backup mails the very file she had.
      const resent = (await second.json(`/orders/sendInvoice?id=${anna}`)).invoice_number;
      expect(resent).toBe(annaNumber);
      expect((await lastPdfMailedTo('anna@example.nl')).bytes).toEqual(annaMailed.bytes);

      // A credit note draws from the same series, also past everything.
      const creditNumber = (await second.json(`/orders/creditInvoice?id=${anna}`)).credit_note_number as string;
      expect(sequenceOf(creditNumber)).toBe(7);

      // What the admin downloads is each order's own document; Anna's is still the one she was mailed.
      expect((await download(second, `/orders/invoice.pdf?id=${anna}`)).bytes).toEqual(annaMailed.bytes);
      const dirkDownload = await download(second, `/orders/invoice.pdf?id=${dirk}`);
      expect(dirkDownload.bytes).toEqual(dirkMailed.bytes);
      const credit = await download(second, `/orders/credit-note.pdf?id=${anna}`);
      expect(credit.text).toContain('Anna Annema');
      expect(credit.text).toContain(creditNumber);
    } finally {
      await first?.server.close();
      await second?.server.close();
    }
  }, 60_000);
});

describe('numbers drawn before the markers existed', () => {
  it('are found once from the files named after them, so a restore of an older database skips them too', async () => {
    const t = await createTestApp();
    try {
      const cookie = await t.cookieFor('admin');
      await setSettings(t, cookie, VALID_INVOICE_SETTINGS);
      // An upgraded install: invoices up to F2026-0007 were stored under their number, and this (restored)
      // database never heard of them.
      mkdirSync(join(t.dir, 'invoices'), { recursive: true });
      writeFileSync(join(t.dir, 'invoices', 'F2026-0007.pdf'), 'the PDF of someone else');
      writeFileSync(join(t.dir, 'invoices', 'F2026-0007-betaal-qr.png'), 'a QR');
      await t.db.delete(sequences).where(eq(sequences.name, LEGACY_MARKERS_DONE));
      const created = await t.request('/orders/create', {
        cookie,
        body: { name: 'Eva Elzinga', email: 'eva@example.nl', phone: '06', address: 'Kade 2', postal_code: '8861 AA', city: 'Harlingen', amount: 1 },
      });
      const [order] = await t.db.select().from(orders).where(eq(orders.reference, created.json.order_reference));
      const sent = await t.request(`/orders/sendInvoice?id=${order!.id}`, { cookie, body: {} });
      expect(sent.json, JSON.stringify(sent.json)).toMatchObject({ success: true, invoice_number: 'F2026-0008' });
      const pdf = await t.request(`/orders/invoice.pdf?id=${order!.id}`, { cookie });
      expect(pdf.text).not.toContain('someone else');
    } finally {
      await t.close();
    }
  });
});
