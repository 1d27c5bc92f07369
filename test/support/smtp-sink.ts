import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';

/**
 * A real SMTP server on loopback (the `smtp-server` package) that keeps what it accepts, for the tests
 * of invoices and mail delivery. It can be stopped and started again on the same port (SMTP down →
 * back), or told to refuse messages with a reply code of our choice.
 */
export interface ReceivedMail {
  /** Envelope sender and recipients (MAIL FROM / RCPT TO). */
  from: string;
  to: string[];
  /** Who logged in, when the client authenticated. */
  user: string | undefined;
  /** Whether the session was encrypted (smtps or STARTTLS). */
  secure: boolean;
  raw: string;
}

export interface SmtpSinkOptions {
  /** Require AUTH with these credentials (PLAIN and LOGIN offered unless `authMethods` says otherwise). */
  auth?: { user: string; pass: string };
  authMethods?: string[];
  /** TLS from the first byte (smtps), with smtp-server's built-in self-signed localhost certificate. */
  secure?: boolean;
  /** Offer STARTTLS (self-signed certificate); off by default so plain clients do not try it. */
  starttls?: boolean;
  /** Let the process end while it listens (a sink started once for a whole test run). */
  unref?: boolean;
}

export interface SmtpSink {
  port: number;
  /** smtp://[user:pass@]127.0.0.1:port, or smtps:// for a secure sink. */
  url: string;
  messages: ReceivedMail[];
  /** Refuse every message with this reply until set back to null (e.g. 421, temporarily unavailable). */
  refuse: { code: number; message: string } | null;
  /** Wait this long before accepting each message (a slow server: sends stay under way). */
  acceptDelayMs: number;
  /** Never answer the end of a message while true (a server that hangs mid-send); such messages are not kept. */
  hang: boolean;
  /** Closes the listener: connections are refused until `start`. */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
  /** Resolves once `count` messages have arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
}

export async function startSmtpSink(options: SmtpSinkOptions = {}): Promise<SmtpSink> {
  const messages: ReceivedMail[] = [];
  const sink: SmtpSink = {
    port: 0,
    url: '',
    messages,
    refuse: null,
    acceptDelayMs: 0,
    hang: false,
    stop: async () => undefined,
    start: async () => undefined,
    waitFor: async () => messages,
  };

  const makeServer = () => {
    const serverOptions: SMTPServerOptions = {
      secure: options.secure ?? false,
      logger: false,
      // A pooled client keeps its connection open between messages: stopping the sink ends it at once
      // (with 421) instead of after smtp-server's 30 seconds.
      closeTimeout: 50,
      disabledCommands: options.starttls || options.secure ? [] : ['STARTTLS'],
      authOptional: !options.auth,
      allowInsecureAuth: true,
      authMethods: options.authMethods ?? ['PLAIN', 'LOGIN'],
      onAuth(auth, _session, callback) {
        if (options.auth && auth.username === options.auth.user && auth.password === options.auth.pass) {
          callback(null, { user: auth.username });
        } else {
          callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
        }
      },
      onMailFrom(_address, _session, callback) {
        if (sink.refuse) return callback(Object.assign(new Error(sink.refuse.message), { responseCode: sink.refuse.code }));
        callback();
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', async () => {
          if (sink.hang) return;
          if (sink.acceptDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, sink.acceptDelayMs));
          messages.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            user: typeof session.user === 'string' ? session.user : undefined,
            secure: session.secure,
            raw: Buffer.concat(chunks).toString('latin1'),
          });
          callback();
        });
      },
    };
    const server = new SMTPServer(serverOptions);
    // A client that goes away mid-session (a workerd shutting down) must not end the test run.
    server.on('error', () => undefined);
    return server;
  };

  let server = makeServer();
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        if (options.unref) server.server.unref();
        resolve((server.server.address() as AddressInfo).port);
      });
    });

  sink.port = await listen(0);
  const credentials = options.auth ? `${encodeURIComponent(options.auth.user)}:${encodeURIComponent(options.auth.pass)}@` : '';
  sink.url = `${options.secure ? 'smtps' : 'smtp'}://${credentials}127.0.0.1:${sink.port}`;
  let running = true;
  sink.stop = async () => {
    if (!running) return;
    running = false;
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  sink.start = async () => {
    if (running) return;
    server = makeServer();
    await listen(sink.port);
    running = true;
  };
  sink.waitFor = async (count, timeoutMs = 5_000) => {
    const deadline = Date.now() + timeoutMs;
    while (messages.length < count) {
      if (Date.now() > deadline) throw new Error(`Expected ${count} messages, got ${messages.length}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return messages;
  };
  return sink;
}

/* ---------------------------------------------------------------------------------------------- */
/* Reading what arrived: a small MIME reader (headers, multipart, base64, quoted-printable).        */
/* ---------------------------------------------------------------------------------------------- */

export interface MimePart {
  headers: Map<string, string>;
  /** The content type without parameters, lower case ('text/plain', 'application/pdf', …). */
  type: string;
  /** Parameters of Content-Type and Content-Disposition (filename, name, boundary, charset). */
  params: Map<string, string>;
  /** Decoded body bytes (leaf parts). */
  body: Uint8Array;
  parts: MimePart[];
}

/** RFC 2047 encoded words ('=?UTF-8?B?…?=', '=?UTF-8?Q?…?=') in a header value. */
export function decodeHeader(value: string): string {
  return value.replace(/\?=\s+=\?/g, '?==?').replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_, charset: string, encoding: string, text: string) => {
    const bytes =
      encoding.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64')
        : Buffer.from(
            text.replace(/_/g, ' ').replace(/=([0-9A-Fa-f]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16))),
            'latin1',
          );
    return new TextDecoder(charset).decode(bytes);
  });
}

function parseHeaderBlock(block: string): Map<string, string> {
  const headers = new Map<string, string>();
  for (const line of block.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return headers;
}

function parseParams(value: string | undefined, into: Map<string, string>): void {
  if (!value) return;
  for (const m of value.matchAll(/;\s*([\w*-]+)=(?:"((?:[^"\\]|\\.)*)"|([^;\s]+))/g)) {
    let name = m[1]!.toLowerCase();
    let v = (m[2] ?? m[3] ?? '').replace(/\\(.)/g, '$1');
    if (name.endsWith('*')) {
      name = name.slice(0, -1);
      v = decodeURIComponent(v.replace(/^[^']*'[^']*'/, ''));
    }
    into.set(name, decodeHeader(v));
  }
}

function decodeBody(body: string, encoding: string): Uint8Array {
  switch (encoding.toLowerCase()) {
    case 'base64':
      return new Uint8Array(Buffer.from(body.replace(/\s+/g, ''), 'base64'));
    case 'quoted-printable':
      return new Uint8Array(
        Buffer.from(
          body.replace(/=\r\n/g, '').replace(/=([0-9A-Fa-f]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16))),
          'latin1',
        ),
      );
    default:
      return new Uint8Array(Buffer.from(body, 'latin1'));
  }
}

/** Parses a whole message (or a part) given as the latin1 string of its bytes. */
export function parseMime(raw: string): MimePart {
  const split = raw.indexOf('\r\n\r\n');
  const headers = parseHeaderBlock(split === -1 ? raw : raw.slice(0, split));
  const body = split === -1 ? '' : raw.slice(split + 4);
  const contentType = headers.get('content-type') ?? 'text/plain';
  const params = new Map<string, string>();
  parseParams(contentType, params);
  parseParams(headers.get('content-disposition'), params);
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  const part: MimePart = { headers, type, params, body: new Uint8Array(), parts: [] };
  if (type.startsWith('multipart/')) {
    const boundary = params.get('boundary')!;
    const pieces = body.split(`--${boundary}`);
    // pieces[0] is the preamble; the last starts with '--' (the closing delimiter).
    for (const piece of pieces.slice(1)) {
      if (piece.startsWith('--')) break;
      part.parts.push(parseMime(piece.replace(/^\r\n/, '').replace(/\r\n$/, '')));
    }
  } else {
    part.body = decodeBody(body, headers.get('content-transfer-encoding') ?? '7bit');
  }
  return part;
}

/** Every leaf part, depth first. */
export function leafParts(part: MimePart): MimePart[] {
  return part.parts.length === 0 ? [part] : part.parts.flatMap(leafParts);
}

/** The decoded text/plain body of a message. */
export function textOf(message: MimePart): string {
  const text = leafParts(message).find((p) => p.type === 'text/plain');
  return text ? new TextDecoder(text.params.get('charset') ?? 'utf-8').decode(text.body) : '';
}

export function attachmentsOf(message: MimePart): { filename: string; type: string; content: Uint8Array }[] {
  return leafParts(message)
    .filter((p) => /attachment/i.test(p.headers.get('content-disposition') ?? ''))
    .map((p) => ({ filename: p.params.get('filename') ?? p.params.get('name') ?? '', type: p.type, content: p.body }));
}
