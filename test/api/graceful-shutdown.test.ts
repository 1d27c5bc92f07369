import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openLibsqlDb } from '../../src/db/libsql';
import { mailOutbox } from '../../src/db/schema';
import { startNodeServer } from '../../src/node';
import { decodeHeader, parseMime, startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import { VALID_INVOICE_SETTINGS } from '../support/invoice-settings';

/**
 * docs/decisions/053: SIGTERM stops the Node server gracefully. Every request it accepted is answered (also
 * one whose bytes were still arriving, or not sent at all yet), the mail under way finishes, and mail cut
 * off by the shutdown's time limit goes at the next start, each message exactly once.
 */

const ADMIN_PASSWORD = 'shutdown-admin-password';
let dir: string;
let sink: SmtpSink;
const children: ChildProcess[] = [];

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kerstactie-shutdown-'));
  sink = await startSmtpSink();
});

afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  await sink.stop();
  rmSync(dir, { recursive: true, force: true });
});

function serverEnv(): Record<string, string> {
  return {
    DATA_DIR: dir,
    PORT: '0',
    HOST: '127.0.0.1',
    ADMIN_PASSWORD,
    SMTP_URL: sink.url,
    MAIL_RATE_PER_MINUTE: '100000',
    // Each public order comes from its own address, as members' orders do.
    TRUSTED_PROXIES: '127.0.0.1',
  };
}

/**
 * The server as `npm start` runs it, its signals handled by runFromCommandLine (through tsx instead of the build,
 * past the Node version check of dist-server/node.js); resolves with its port.
 */
async function startChild(): Promise<{ child: ChildProcess; port: number; exited: Promise<number | null> }> {
  const run = "import('./src/node.ts').then((server) => server.runFromCommandLine())";
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', run], {
    cwd: process.cwd(),
    // Only what the server needs (the generated Worker types make every variable of ProcessEnv required).
    env: { PATH: process.env.PATH ?? '', ...serverEnv() } as unknown as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let output = '';
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 30_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /running on http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', () => reject(new Error(`server exited:\n${output}`)));
  });
  return { child, port, exited };
}

interface RawAnswer {
  status: number;
  text: string;
}

/**
 * One request over its own connection, written in two parts: `first` at once, the rest when `rest` resolves
 * (a client whose bytes are still on their way). Resolves with the answer once the server ends the
 * connection; rejects on a reset.
 */
function rawRequest(port: number, head: string, body: string, split: number, rest: Promise<void>): { connected: Promise<void>; answer: Promise<RawAnswer> } {
  const socket = connect(port, '127.0.0.1');
  const bytes = Buffer.from(`${head}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  const connected = new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  const answer = new Promise<RawAnswer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.once('error', reject);
    socket.once('end', () => {
      const text = Buffer.concat(chunks).toString();
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), text });
    });
  });
  void connected.then(async () => {
    if (split > 0) socket.write(bytes.subarray(0, split));
    await rest;
    socket.write(bytes.subarray(split));
  });
  // Seen as handled at once: the test awaits every answer later and fails on a reset there.
  answer.catch(() => undefined);
  return { connected, answer };
}

async function api(base: string, path: string, init: { body?: unknown; cookie?: string } = {}) {
  const response = await fetch(`${base}${path}`, {
    method: init.body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', ...(init.cookie ? { cookie: init.cookie } : {}) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: response.status, json: await response.json(), headers: response.headers };
}

/** Every outbox row is sent, and the SMTP server got exactly one message for each. */
async function expectEveryMessageOnce() {
  const { db, client } = openLibsqlDb(`file:${join(dir, 'kerstactie.db')}`);
  try {
    const rows = await db.select().from(mailOutbox);
    expect(rows.filter((row) => row.status !== 'sent')).toEqual([]);
    const received = sink.messages.map((m) => `${m.to.join(',')} ${decodeHeader(parseMime(m.raw).headers.get('subject') ?? '')}`);
    for (const row of rows) expect(received.filter((r) => r === `${row.toAddress} ${row.subject}`)).toHaveLength(1);
    expect(received).toHaveLength(rows.length);
    return rows;
  } finally {
    client.close();
  }
}

describe('graceful shutdown of the Node server (docs/decisions/053)', () => {
  it('answers every accepted request after SIGTERM, finishes the mail under way, exits 0, and sends nothing twice after a restart', {
    timeout: 120_000,
  }, async () => {
    const first = await startChild();
    const base = `http://127.0.0.1:${first.port}`;
    const login = await fetch(`${base}/api/account/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
    });
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
    for (const [key, value] of Object.entries(VALID_INVOICE_SETTINGS)) {
      expect((await api(base, '/api/settings/update', { cookie, body: { key, value } })).json).toEqual({ success: true });
    }
    const tabler = (await api(base, '/tablers/create', { cookie, body: { name: 'Piet Tabler' } })).json.tabler as { id: number };
    const invoiceOrders: number[] = [];
    for (let i = 0; i < 3; i++) {
      const created = await api(base, '/orders/create', {
        cookie,
        body: { name: `Bedrijf ${i}`, email: `factuur-${i}@example.nl`, phone: '06', address: 'Kade 1', postal_code: '8861 AA', city: 'Harlingen', amount: 2 },
      });
      expect(created.json.success).toBe(true);
    }
    const listed = (await api(base, '/orders', { cookie })).json as { id: number; email: string }[] | { orders: { id: number; email: string }[] };
    const orderList = Array.isArray(listed) ? listed : listed.orders;
    for (const order of orderList) if (order.email.startsWith('factuur-')) invoiceOrders.push(order.id);
    expect(invoiceOrders).toHaveLength(3);

    // A slow SMTP server: the mail of these requests is still under way when SIGTERM comes.
    sink.acceptDelayMs = 300;
    let releaseRest!: () => void;
    const rest = new Promise<void>((resolve) => {
      releaseRest = resolve;
    });
    const orderRequest = (i: number) => {
      const body = JSON.stringify({
        tabler_id: tabler.id,
        name: `Klant ${String.fromCharCode(65 + i)}`,
        email: `klant-${i}@example.nl`,
        phone: '0612345678',
        address: `Kerkstraat ${i + 1}`,
        postalCode: '8861 AA',
        city: 'Harlingen',
        quantity: 1,
      });
      const head = `POST /orders/create HTTP/1.1\r\nHost: 127.0.0.1:${first.port}\r\nContent-Type: application/json\r\nX-Forwarded-For: 198.51.100.${i + 1}\r\n`;
      // A third whole, a third with half the body still to come, a third with nothing sent yet.
      const split = i % 3 === 0 ? Number.POSITIVE_INFINITY : i % 3 === 1 ? head.length + 10 : 0;
      return rawRequest(first.port, head, body, split, i % 3 === 0 ? Promise.resolve() : rest);
    };
    // The connections open one after another, those that keep the server busy last: a burst of connects at a
    // server whose event loop is busy can overflow the kernel's accept queue, which is the network's business.
    const order = Array.from({ length: 20 }, (_, i) => i).sort((a, b) => Number(a % 3 === 0) - Number(b % 3 === 0));
    const requests: ReturnType<typeof rawRequest>[] = [];
    for (const i of order) {
      const request = orderRequest(i);
      requests.push(request);
      await request.connected;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const invoiceSends: ReturnType<typeof rawRequest>[] = [];
    for (const id of invoiceOrders) {
      const send = rawRequest(
        first.port,
        `POST /orders/sendInvoice?id=${id} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nCookie: ${cookie}\r\n`,
        '{}',
        Number.POSITIVE_INFINITY,
        Promise.resolve(),
      );
      invoiceSends.push(send);
      await send.connected;
    }

    const stoppedAt = Date.now();
    first.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 200));
    releaseRest();

    const answers = await Promise.all([...requests, ...invoiceSends].map((r) => r.answer));
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.text).toContain('"success":true');
    }
    expect(answers.slice(0, 20).filter((a) => /"order_reference":"KP-\d{4}-\d{4}"/.test(a.text))).toHaveLength(20);
    expect(await first.exited).toBe(0);
    expect(Date.now() - stoppedAt).toBeLessThan(25_000);

    // Nothing was left half-sent; whatever the drain had not reached waits in the queue.
    const { db, client } = openLibsqlDb(`file:${join(dir, 'kerstactie.db')}`);
    const afterStop = await db.select().from(mailOutbox);
    client.close();
    expect(afterStop.filter((row) => row.status === 'sending')).toEqual([]);
    expect(afterStop.filter((row) => row.toAddress.startsWith('klant-'))).toHaveLength(20);

    sink.acceptDelayMs = 0;
    const second = await startChild();
    const deadline = Date.now() + 20_000;
    while (sink.messages.length < afterStop.length && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    const rows = await expectEveryMessageOnce();
    expect(rows.filter((row) => row.kind === 'invoice')).toHaveLength(3);
  });

  it('gives up waiting after its time limit, and a message cut off mid-send goes at the next start, once', { timeout: 60_000 }, async () => {
    const server = await startNodeServer(serverEnv());
    // The server never confirms the end of a message: the send hangs.
    sink.hang = true;
    const base = `http://127.0.0.1:${server.port}`;
    const login = await api(base, '/api/account/login', { body: { username: 'admin', password: ADMIN_PASSWORD } });
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
    expect((await api(base, '/tablers/create', { cookie, body: { name: 'Piet Tabler' } })).status).toBe(200);
    const contact = await api(base, '/contact/send', {
      body: { name: 'Zoë', email: 'zoe@example.nl', subject: 'Bezorging', message: 'Bezorgen jullie in Midlum?' },
    });
    expect(contact.json).toEqual({ success: true });
    const started = Date.now();
    await server.close(1_000);
    expect(Date.now() - started).toBeLessThan(5_000);

    const { db, client } = openLibsqlDb(`file:${join(dir, 'kerstactie.db')}`);
    expect((await db.select().from(mailOutbox)).map((row) => row.status)).toEqual(['sending']);
    client.close();

    sink.hang = false;
    const again = await startNodeServer(serverEnv());
    try {
      await sink.waitFor(1, 10_000);
    } finally {
      await again.close();
    }
    await expectEveryMessageOnce();
  });
});
