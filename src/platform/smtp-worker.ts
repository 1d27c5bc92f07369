/**
 * A minimal SMTP client for the Worker (docs/architecture.md §1: 'SMTP over cloudflare:sockets'), where nodemailer
 * cannot run. One connection per message, the conversation of RFC 5321:
 *
 *   greeting 220 → EHLO → [STARTTLS → 220 → TLS → EHLO] → [AUTH PLAIN | LOGIN → 235]
 *   → MAIL FROM → RCPT TO → DATA → 354 → message (dot-stuffed) + CRLF.CRLF → 250 → QUIT
 *
 * `smtps://host[:465]` is TLS from the first byte (secureTransport 'on'); `smtp://host[:587]` starts in
 * plain text and upgrades with STARTTLS when the server offers it (secureTransport 'starttls', then
 * socket.startTls()). A password is never sent over an unencrypted connection, except to a server on
 * the same machine (loopback).
 *
 * The socket is passed in (`connect` of 'cloudflare:sockets' on the Worker), so this file imports no
 * Worker module and its protocol is tested on Node against a real SMTP server.
 */
import { encodeBase64 } from '@oslojs/encoding';
import type { MailTransport, TransportMessage } from './mail';
import { addressOf, buildMimeMessage, replyToAddress } from './mime';

/** The part of the Workers Socket this client uses (see @cloudflare/workers-types `Socket`). */
export interface SmtpSocket {
  readonly readable: ReadableStream<Uint8Array>;
  readonly writable: WritableStream<Uint8Array>;
  /** Workers sockets report a failed connect or close here too; we read the streams instead. */
  readonly opened?: Promise<unknown>;
  readonly closed?: Promise<unknown>;
  close(): Promise<void>;
  startTls(options?: { expectedServerHostname?: string }): SmtpSocket;
}

export type SmtpConnect = (
  address: { hostname: string; port: number },
  options: { secureTransport: 'on' | 'off' | 'starttls'; allowHalfOpen: boolean },
) => SmtpSocket;

export interface SmtpServerSettings {
  hostname: string;
  port: number;
  /** TLS from the start (smtps://). */
  secure: boolean;
  username: string | undefined;
  password: string | undefined;
}

/** SMTP_URL → where and how to connect. smtp:// defaults to port 587, smtps:// to 465. */
export function parseSmtpUrl(smtpUrl: string): SmtpServerSettings {
  const url = new URL(smtpUrl);
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') throw new Error('SMTP_URL must start with smtp:// or smtps://');
  const secure = url.protocol === 'smtps:';
  return {
    // new URL keeps IPv6 literals in brackets; connect() wants the bare address.
    hostname: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    username: url.username ? decodeURIComponent(url.username) : undefined,
    password: url.password ? decodeURIComponent(url.password) : undefined,
  };
}

export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

/**
 * RFC 5321 §4.5.2: a line of the message that starts with '.' gets one more, so that no line of the
 * message can be mistaken for the lone '.' that ends DATA. Line ends are made CRLF first.
 */
export function dotStuff(message: string): string {
  return message.replace(/\r?\n/g, '\r\n').replace(/(^|\r\n)\./g, '$1..');
}

/** The DATA payload: the dot-stuffed message, ending in CRLF, then the terminating '.' line. */
export function dataPayload(message: string): string {
  const stuffed = dotStuff(message);
  return `${stuffed.endsWith('\r\n') ? stuffed : `${stuffed}\r\n`}.\r\n`;
}

/** AUTH PLAIN's initial response (RFC 4616): base64 of NUL user NUL password, in UTF-8. */
export function authPlainToken(username: string, password: string): string {
  return encodeBase64(new TextEncoder().encode(`\u0000${username}\u0000${password}`));
}

export interface SmtpReply {
  code: number;
  lines: string[];
}

/** What the EHLO reply says the server can do. */
export function parseEhlo(reply: SmtpReply): { startTls: boolean; auth: string[] } {
  let startTls = false;
  let auth: string[] = [];
  for (const line of reply.lines.slice(1)) {
    const upper = line.toUpperCase();
    if (upper === 'STARTTLS') startTls = true;
    if (upper.startsWith('AUTH ') || upper.startsWith('AUTH=')) auth = upper.slice(5).split(/\s+/).filter(Boolean);
  }
  return { startTls, auth };
}

/** Envelope addresses go inside <…>: nothing that could end the command or add another. */
function envelopeAddress(mailbox: string): string {
  const address = addressOf(mailbox);
  if (!/^[^\s<>@]+@[^\s<>@]+$/.test(address)) throw new Error(`Invalid e-mail address: ${address}`);
  return address;
}

class SmtpError extends Error {
  override name = 'SmtpError';
}

/** One SMTP conversation over one socket: writes commands, reads (multi-line) replies with a timeout. */
class SmtpConnection {
  private reader: ReadableStreamDefaultReader<Uint8Array>;
  private writer: WritableStreamDefaultWriter<Uint8Array>;
  private buffer = '';
  private readonly decoder = new TextDecoder();
  private readonly encoder = new TextEncoder();

  constructor(
    private socket: SmtpSocket,
    private readonly timeoutMs: number,
  ) {
    SmtpConnection.quiet(socket);
    this.reader = socket.readable.getReader();
    this.writer = socket.writable.getWriter();
  }

  /** The errors these promises carry also reach the streams, where they are handled. */
  private static quiet(socket: SmtpSocket): void {
    socket.opened?.catch(() => undefined);
    socket.closed?.catch(() => undefined);
  }

  private async withTimeout<T>(work: Promise<T>, what: string): Promise<T> {
    // The loser of the race must not surface later as an unhandled rejection.
    work.catch(() => undefined);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new SmtpError(`SMTP server did not answer ${what} within ${this.timeoutMs / 1000} s`)), this.timeoutMs);
    });
    try {
      return await Promise.race([work, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async readLine(): Promise<string> {
    for (;;) {
      const end = this.buffer.indexOf('\n');
      if (end !== -1) {
        const line = this.buffer.slice(0, end).replace(/\r$/, '');
        this.buffer = this.buffer.slice(end + 1);
        return line;
      }
      const { done, value } = await this.reader.read();
      if (done) throw new SmtpError('SMTP server closed the connection');
      this.buffer += this.decoder.decode(value, { stream: true });
    }
  }

  /** A reply: lines 'NNN-text' continue, 'NNN text' ends it (RFC 5321 §4.2.1). */
  async reply(what: string): Promise<SmtpReply> {
    return this.withTimeout(
      (async () => {
        const lines: string[] = [];
        for (;;) {
          const line = await this.readLine();
          const match = /^(\d{3})([- ]?)(.*)$/.exec(line);
          if (!match) throw new SmtpError(`Unexpected SMTP reply: ${line.slice(0, 200)}`);
          lines.push(match[3]!);
          if (match[2] !== '-') return { code: Number(match[1]), lines };
        }
      })(),
      what,
    );
  }

  async expect(what: string, ...codes: number[]): Promise<SmtpReply> {
    const reply = await this.reply(what);
    if (!codes.includes(reply.code)) throw new SmtpError(`SMTP ${what} refused: ${reply.code} ${reply.lines.join(' ').slice(0, 500)}`);
    return reply;
  }

  async write(data: string): Promise<void> {
    await this.withTimeout(this.writer.write(this.encoder.encode(data)), 'a write');
  }

  /** Sends one command line and checks the reply code. `shown` keeps secrets out of error texts. */
  async command(line: string, codes: number[], shown = line.split(' ')[0]!): Promise<SmtpReply> {
    await this.write(`${line}\r\n`);
    return this.expect(shown, ...codes);
  }

  /** After the server's 220 to STARTTLS: hand the connection to TLS and talk over the new socket. */
  upgrade(hostname: string): void {
    if (this.buffer !== '') throw new SmtpError('SMTP server sent data before the TLS handshake');
    // startTls takes over the connection: our reader and writer must let go of the plain streams.
    this.reader.releaseLock();
    this.writer.releaseLock();
    this.socket = this.socket.startTls({ expectedServerHostname: hostname });
    SmtpConnection.quiet(this.socket);
    this.reader = this.socket.readable.getReader();
    this.writer = this.socket.writable.getWriter();
  }

  async close(): Promise<void> {
    try {
      this.reader.releaseLock();
      this.writer.releaseLock();
    } catch {
      // Already released or errored: closing the socket is all that is left.
    }
    await this.socket.close().catch(() => undefined);
  }
}

export interface WorkerSmtpOptions {
  /** Per reply and per write; a silent server fails the attempt (the outbox retries later). */
  timeoutMs?: number;
  /** Our name in EHLO; by default the domain of the sender address. */
  clientName?: string;
  now?: () => Date;
}

/** Sends one message over a new connection; resolves once the server accepted it (250 after DATA). */
export async function sendSmtpMessage(
  server: SmtpServerSettings,
  connect: SmtpConnect,
  message: TransportMessage,
  options: WorkerSmtpOptions = {},
): Promise<void> {
  const from = envelopeAddress(message.from);
  const to = envelopeAddress(message.to);
  const replyTo = message.replyTo === undefined ? undefined : replyToAddress(message.replyTo);
  const ehloName = options.clientName ?? (from.split('@')[1] || 'localhost');
  const mime = buildMimeMessage({ ...message, replyTo, date: (options.now ?? (() => new Date()))() });

  const socket = connect({ hostname: server.hostname, port: server.port }, { secureTransport: server.secure ? 'on' : 'starttls', allowHalfOpen: false });
  const smtp = new SmtpConnection(socket, options.timeoutMs ?? 30_000);
  try {
    await smtp.expect('greeting', 220);
    let capabilities = parseEhlo(await smtp.command(`EHLO ${ehloName}`, [250]));
    let encrypted = server.secure;
    if (!encrypted && capabilities.startTls) {
      await smtp.command('STARTTLS', [220]);
      smtp.upgrade(server.hostname);
      encrypted = true;
      // RFC 3207 §4.2: everything learnt before TLS is forgotten; ask again.
      capabilities = parseEhlo(await smtp.command(`EHLO ${ehloName}`, [250]));
    }

    if (server.username !== undefined) {
      if (!encrypted && !isLoopbackHost(server.hostname)) {
        throw new SmtpError('SMTP server offers no STARTTLS: the password is not sent unencrypted (use smtps:// or a server with STARTTLS)');
      }
      const password = server.password ?? '';
      if (capabilities.auth.includes('PLAIN') || !capabilities.auth.includes('LOGIN')) {
        await smtp.command(`AUTH PLAIN ${authPlainToken(server.username, password)}`, [235], 'AUTH PLAIN');
      } else {
        await smtp.command('AUTH LOGIN', [334]);
        await smtp.command(encodeBase64(new TextEncoder().encode(server.username)), [334], 'AUTH LOGIN username');
        await smtp.command(encodeBase64(new TextEncoder().encode(password)), [235], 'AUTH LOGIN password');
      }
    }

    await smtp.command(`MAIL FROM:<${from}>`, [250], 'MAIL FROM');
    await smtp.command(`RCPT TO:<${to}>`, [250, 251], 'RCPT TO');
    await smtp.command('DATA', [354]);
    await smtp.write(dataPayload(mime));
    await smtp.expect('the message', 250);
    // Accepted: a failing QUIT changes nothing.
    await smtp.command('QUIT', [221]).catch(() => undefined);
  } finally {
    await smtp.close();
  }
}

/** The Worker's MailTransport over SMTP_URL; `connect` is 'cloudflare:sockets' connect(). */
export function createWorkerSmtpTransport(smtpUrl: string, connect: SmtpConnect, options: WorkerSmtpOptions = {}): MailTransport {
  const server = parseSmtpUrl(smtpUrl);
  // A Workers socket belongs to the invocation that opened it (docs/decisions/053).
  return { send: (message) => sendSmtpMessage(server, connect, message, options), scope: 'invocation' };
}
