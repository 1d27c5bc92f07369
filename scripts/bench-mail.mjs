// The mail budget of `npm run bench` (docs/decisions/053): 2,000 messages queued while there was no SMTP
// server, then the built Node server started with one, delivering to an SMTP server on loopback (smtp-server,
// in a child process so it does not share the server's event loop). Each message is an invoice-sized mail:
// a text and HTML body and a 40 KB attachment read from the data folder, as an invoice's PDF is.
//   capacity: MAIL_RATE_PER_MINUTE high enough not to be the limit                 >= 300 a minute
//   the default MAIL_RATE_PER_MINUTE (300): a shorter run, and what 2,000 take     <= 7 minutes
// Each run stops after 120 s. `BENCH_ONLY=mail node scripts/bench.mjs` runs this part alone.
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient } from '@libsql/client';

const QUEUED = 2_000;
const AT_DEFAULT_RATE = 100;
const RUN_LIMIT_MS = 120_000;
const ATTACHMENT_KEY = 'invoices/bench-mail.pdf';

/** The SMTP server on loopback: keeps a count of messages and of distinct recipients, told over IPC. */
async function runSink() {
  const { SMTPServer } = await import('smtp-server');
  let messages = 0;
  const recipients = new Set();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    closeTimeout: 50,
    onData(stream, session, callback) {
      stream.on('data', () => undefined);
      stream.on('end', () => {
        messages++;
        for (const to of session.envelope.rcptTo) recipients.add(to.address);
        callback();
      });
    },
  });
  server.listen(0, '127.0.0.1', () => process.send({ port: server.server.address().port }));
  process.on('message', (message) => {
    if (message === 'report') process.send({ messages, recipients: recipients.size });
    if (message === 'stop') server.close(() => process.exit(0));
  });
}

function startSink() {
  const child = fork(fileURLToPath(import.meta.url), ['sink'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const next = () => new Promise((resolve) => child.once('message', resolve));
  return next().then(({ port }) => ({
    url: `smtp://127.0.0.1:${port}`,
    report: () => {
      const answer = next();
      child.send('report');
      return answer;
    },
    stop: () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.send('stop');
      return exited;
    },
  }));
}

/** Queues `count` messages to bench-<label>-<i>@example.nl, due now, as the outbox holds them. */
async function queueMail(database, count, label) {
  const now = Date.now();
  const attachments = JSON.stringify([{ filename: 'Factuur-bench.pdf', contentType: 'application/pdf', fileKey: ATTACHMENT_KEY }]);
  const text = `Beste klant,\n\n${'In de bijlage vind je de factuur voor je bestelling. '.repeat(12)}\n\nMet vriendelijke groet,\nDe club`;
  const html = `<!doctype html><html lang="nl"><body>${text
    .split('\n\n')
    .map((p) => `<p>${p}</p>`)
    .join('')}</body></html>`;
  await database.batch(
    Array.from({ length: count }, (_, i) => ({
      sql: `INSERT INTO mail_outbox (kind, to_address, subject, text_body, html_body, attachments, related_ref, status, next_attempt_at, created_at)
            VALUES ('bench', ?, ?, ?, ?, ?, NULL, 'queued', ?, ?)`,
      args: [`bench-${label}-${i}@example.nl`, `Factuur ${label} ${i}`, text, html, attachments, now, new Date(now).toISOString()],
    })),
    'write',
  );
}

/**
 * Starts the built server on `dataDir` with the SMTP server and `env`; its start drains what is queued
 * (docs/decisions/053). Answers how long until `count` messages of `label` were sent (or the run stopped),
 * and the spacing of the sends: the rate from the first message's sent_at to the last's.
 */
async function drain(startNodeServer, dataDir, database, smtpUrl, label, count, env) {
  const started = performance.now();
  const log = console.log;
  console.log = () => undefined; // the server's start-up lines
  const server = await startNodeServer({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', ADMIN_PASSWORD: 'bench-admin-password', SMTP_URL: smtpUrl, ...env });
  console.log = log;
  const where = `kind = 'bench' AND to_address LIKE 'bench-${label}-%'`;
  let sent = 0;
  for (;;) {
    sent = Number((await database.execute(`SELECT count(*) AS n FROM mail_outbox WHERE ${where} AND status = 'sent'`)).rows[0].n);
    if (sent >= count || performance.now() - started > RUN_LIMIT_MS) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const seconds = (performance.now() - started) / 1000;
  await server.close(5_000);
  const { rows } = await database.execute(`SELECT min(sent_at) AS first, max(sent_at) AS last FROM mail_outbox WHERE ${where} AND status = 'sent'`);
  const spanMs = Date.parse(rows[0].last) - Date.parse(rows[0].first);
  return { sent, seconds, perMinute: sent > 1 && spanMs > 0 ? ((sent - 1) / spanMs) * 60_000 : Number.NaN };
}

/**
 * Prints the mail lines of the bench through `budgetLine` (scripts/bench.mjs). Answers whether every
 * message arrived exactly once.
 */
export async function benchMail(budgetLine) {
  const { startNodeServer } = await import('../dist-server/server.js');
  const dataDir = mkdtempSync(join(tmpdir(), 'kerstactie-bench-mail-'));
  const sink = await startSink();
  try {
    // A first start without SMTP makes the database; the mail then waits as it would during an outage.
    const log = console.log;
    console.log = () => undefined;
    await (await startNodeServer({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', ADMIN_PASSWORD: 'bench-admin-password' })).close();
    console.log = log;
    mkdirSync(join(dataDir, 'invoices'), { recursive: true });
    writeFileSync(join(dataDir, ATTACHMENT_KEY), randomBytes(40 * 1024));
    const database = createClient({ url: `file:${join(dataDir, 'kerstactie.db')}` });

    await queueMail(database, QUEUED, 'capacity');
    const capacity = await drain(startNodeServer, dataDir, database, sink.url, 'capacity', QUEUED, { MAIL_RATE_PER_MINUTE: '100000' });
    budgetLine(
      `mail: ${capacity.sent} messages in ${capacity.seconds.toFixed(1)} s (4 connections, rate 100000/min) =`,
      (capacity.sent / capacity.seconds) * 60,
      300,
      true,
      (v) => `${v.toFixed(0)}/min`,
    );
    console.log(
      `${'mail: 2,000 queued, drained from the server start'.padEnd(52)} ${`${capacity.seconds.toFixed(1)} s`.padStart(10)}  (for information: the sends alone ${capacity.perMinute.toFixed(0)}/min${capacity.sent < QUEUED ? `; stopped after ${RUN_LIMIT_MS / 1000} s` : ''})`,
    );

    await queueMail(database, AT_DEFAULT_RATE, 'default');
    const paced = await drain(startNodeServer, dataDir, database, sink.url, 'default', AT_DEFAULT_RATE, {});
    budgetLine(
      `mail at the default 300/min: ${paced.sent} in ${paced.seconds.toFixed(1)} s = ${paced.perMinute.toFixed(0)}/min; 2,000 in`,
      QUEUED / paced.perMinute,
      7,
      false,
      (v) => `${v.toFixed(1)} min`,
    );

    const received = await sink.report();
    const expected = capacity.sent + paced.sent;
    const once = received.messages === expected && received.recipients === expected;
    console.log(
      `${'mail: messages the SMTP server received'.padEnd(52)} ${String(received.messages).padStart(10)}  (${received.recipients} recipients; ${once ? 'each once' : `EXPECTED ${expected}, each once`})`,
    );
    database.close();
    return once;
  } finally {
    await sink.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[2] === 'sink') await runSink();
