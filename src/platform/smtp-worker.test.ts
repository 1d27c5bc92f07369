import { connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { afterEach, describe, expect, it } from 'vitest';
import { attachmentsOf, decodeHeader, parseMime, startSmtpSink, textOf, type SmtpSink } from '../../test/support/smtp-sink';
import type { TransportMessage } from './mail';
import {
  authPlainToken,
  createWorkerSmtpTransport,
  dataPayload,
  dotStuff,
  isLoopbackHost,
  parseEhlo,
  parseSmtpUrl,
  type SmtpConnect,
  type SmtpSocket,
} from './smtp-worker';

describe('SMTP_URL', () => {
  it('reads smtp:// with STARTTLS on 587 by default and smtps:// on 465', () => {
    expect(parseSmtpUrl('smtp://mail.example.nl')).toEqual({ hostname: 'mail.example.nl', port: 587, secure: false, username: undefined, password: undefined });
    expect(parseSmtpUrl('smtps://mail.example.nl')).toMatchObject({ port: 465, secure: true });
    expect(parseSmtpUrl('smtp://mail.example.nl:2525')).toMatchObject({ port: 2525 });
  });

  it('decodes the user and password', () => {
    expect(parseSmtpUrl('smtps://kerst%40example.nl:p%40ss%3Aw0rd@mail.example.nl')).toMatchObject({ username: 'kerst@example.nl', password: 'p@ss:w0rd' });
  });

  it('gives IPv6 hosts without brackets and refuses other schemes', () => {
    expect(parseSmtpUrl('smtp://[::1]:25').hostname).toBe('::1');
    expect(() => parseSmtpUrl('http://mail.example.nl')).toThrow('SMTP_URL must start with smtp:// or smtps://');
  });

  it('knows loopback hosts', () => {
    expect(['localhost', '127.0.0.1', '127.1.2.3', '::1'].every(isLoopbackHost)).toBe(true);
    expect(['mail.example.nl', '10.0.0.1', '128.0.0.1'].some(isLoopbackHost)).toBe(false);
  });
});

describe('protocol pieces', () => {
  it('dot-stuffs lines that start with a dot and ends DATA with CRLF.CRLF', () => {
    expect(dotStuff('.start\r\nmiddle\n.\n..two\nend.')).toBe('..start\r\nmiddle\r\n..\r\n...two\r\nend.');
    expect(dataPayload('a\r\n.\r\nb')).toBe('a\r\n..\r\nb\r\n.\r\n');
    expect(dataPayload('a\r\n')).toBe('a\r\n.\r\n');
  });

  it('builds the AUTH PLAIN token of RFC 4616', () => {
    expect(Buffer.from(authPlainToken('kerst', 'géheim'), 'base64').toString('utf8')).toBe('\u0000kerst\u0000géheim');
  });

  it('reads STARTTLS and AUTH mechanisms from an EHLO reply', () => {
    expect(parseEhlo({ code: 250, lines: ['mail.example.nl Hello', 'PIPELINING', 'STARTTLS', 'AUTH LOGIN PLAIN', 'SIZE 1000'] })).toEqual({
      startTls: true,
      auth: ['LOGIN', 'PLAIN'],
    });
    expect(parseEhlo({ code: 250, lines: ['mail.example.nl'] })).toEqual({ startTls: false, auth: [] });
  });
});

/**
 * Node stand-in for cloudflare:sockets' connect(): the same Socket surface (readable, writable, close,
 * startTls) over node:net / node:tls, always to 127.0.0.1:<port> whatever host name the client uses,
 * and accepting the sink's self-signed certificate.
 */
function nodeConnect(port: number, log: string[] = []): SmtpConnect {
  const wrap = (socket: Socket): SmtpSocket => {
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const onData = (chunk: Buffer) => controller.enqueue(new Uint8Array(chunk));
    const onEnd = () => {
      try {
        controller.close();
      } catch {
        // already closed or errored
      }
    };
    const onError = (error: Error) => {
      try {
        controller.error(error);
      } catch {
        // already closed or errored
      }
    };
    const readable = new ReadableStream<Uint8Array>({
      start(c) {
        controller = c;
        socket.on('data', onData);
        socket.once('end', onEnd);
        socket.once('error', onError);
      },
    });
    const writable = new WritableStream<Uint8Array>({
      write: (chunk) =>
        new Promise<void>((resolve, reject) => {
          log.push(Buffer.from(chunk).toString('utf8'));
          socket.write(chunk, (error) => (error ? reject(error) : resolve()));
        }),
    });
    return {
      readable,
      writable,
      close: async () => {
        socket.destroy();
      },
      startTls(options) {
        socket.off('data', onData);
        socket.off('end', onEnd);
        socket.off('error', onError);
        log.push('<<TLS>>');
        return wrap(
          tlsConnect({
            socket,
            servername: options?.expectedServerHostname === '127.0.0.1' ? undefined : options?.expectedServerHostname,
            rejectUnauthorized: false,
          }),
        );
      },
    };
  };
  return (_address, options) =>
    wrap(options.secureTransport === 'on' ? tlsConnect({ host: '127.0.0.1', port, rejectUnauthorized: false }) : netConnect({ host: '127.0.0.1', port }));
}

const pdf = new Uint8Array(20_000).map((_, i) => (i * 7 + 3) % 256);
const message: TransportMessage = {
  from: 'Kerstactie <noreply@kerst.example>',
  to: 'klant@example.nl',
  subject: 'Factuur F2026-0001 – kerstactie',
  text: 'Beste Zoë,\n\n.dit begint met een punt\nIn de bijlage vind je de factuur.',
  attachments: [{ filename: 'Factuur-F2026-0001.pdf', contentType: 'application/pdf', content: pdf }],
};

let sink: SmtpSink | undefined;
afterEach(async () => {
  await sink?.stop();
  sink = undefined;
});

function expectDelivered(received: SmtpSink['messages'][number]) {
  expect(received.from).toBe('noreply@kerst.example');
  expect(received.to).toEqual(['klant@example.nl']);
  const parsed = parseMime(received.raw);
  expect(decodeHeader(parsed.headers.get('subject')!)).toBe('Factuur F2026-0001 – kerstactie');
  expect(textOf(parsed)).toBe('Beste Zoë,\r\n\r\n.dit begint met een punt\r\nIn de bijlage vind je de factuur.');
  const [attachment] = attachmentsOf(parsed);
  expect(attachment?.filename).toBe('Factuur-F2026-0001.pdf');
  expect(Buffer.from(attachment!.content).equals(Buffer.from(pdf))).toBe(true);
}

describe('the Worker SMTP client against a real SMTP server on loopback', () => {
  it('delivers a message with its attachment over a plain connection', async () => {
    sink = await startSmtpSink();
    await createWorkerSmtpTransport(`smtp://127.0.0.1:${sink.port}`, nodeConnect(sink.port)).send(message);
    expect(sink.messages).toHaveLength(1);
    expectDelivered(sink.messages[0]!);
  });

  it('upgrades with STARTTLS when offered, asks EHLO again and logs in with AUTH PLAIN', async () => {
    sink = await startSmtpSink({ starttls: true, auth: { user: 'kerst', pass: 'geheim' } });
    const log: string[] = [];
    await createWorkerSmtpTransport(`smtp://kerst:geheim@smtp.example.test:${sink.port}`, nodeConnect(sink.port, log)).send(message);
    expect(sink.messages[0]).toMatchObject({ user: 'kerst', secure: true });
    expectDelivered(sink.messages[0]!);
    const commands = log.map((l) => l.split(' ')[0]!.trim());
    expect(commands.slice(0, 5)).toEqual(['EHLO', 'STARTTLS', '<<TLS>>', 'EHLO', 'AUTH']);
  });

  it('uses AUTH LOGIN when the server offers only that', async () => {
    sink = await startSmtpSink({ auth: { user: 'kerst', pass: 'geheim' }, authMethods: ['LOGIN'] });
    await createWorkerSmtpTransport(`smtp://kerst:geheim@127.0.0.1:${sink.port}`, nodeConnect(sink.port)).send(message);
    expect(sink.messages[0]?.user).toBe('kerst');
  });

  it('speaks TLS from the first byte for smtps://', async () => {
    sink = await startSmtpSink({ secure: true, auth: { user: 'kerst', pass: 'geheim' } });
    await createWorkerSmtpTransport(`smtps://kerst:geheim@smtp.example.test:${sink.port}`, nodeConnect(sink.port)).send(message);
    expect(sink.messages[0]).toMatchObject({ user: 'kerst', secure: true });
    expectDelivered(sink.messages[0]!);
  });

  it('never sends a password unencrypted to a server elsewhere that offers no STARTTLS', async () => {
    sink = await startSmtpSink({ auth: { user: 'kerst', pass: 'geheim' } });
    const log: string[] = [];
    await expect(createWorkerSmtpTransport(`smtp://kerst:geheim@smtp.example.test:${sink.port}`, nodeConnect(sink.port, log)).send(message)).rejects.toThrow(
      'the password is not sent unencrypted',
    );
    expect(log.join('')).not.toContain(authPlainToken('kerst', 'geheim'));
    expect(sink.messages).toHaveLength(0);
  });

  it('fails with the server reply for a wrong password, without the password in the error', async () => {
    sink = await startSmtpSink({ auth: { user: 'kerst', pass: 'geheim' } });
    const error = await createWorkerSmtpTransport(`smtp://kerst:fout@127.0.0.1:${sink.port}`, nodeConnect(sink.port))
      .send(message)
      .catch((e: Error) => e);
    expect(String(error)).toContain('SMTP AUTH PLAIN refused: 535');
    expect(String(error)).not.toContain(authPlainToken('kerst', 'fout'));
  });

  it('fails with the reply when the server refuses the message', async () => {
    sink = await startSmtpSink();
    sink.refuse = { code: 421, message: 'Service not available, try later' };
    await expect(createWorkerSmtpTransport(`smtp://127.0.0.1:${sink.port}`, nodeConnect(sink.port)).send(message)).rejects.toThrow(
      'SMTP MAIL FROM refused: 421 Service not available, try later',
    );
  });

  it('fails when nothing listens, and when the server says nothing in time', async () => {
    sink = await startSmtpSink();
    const port = sink.port;
    await sink.stop();
    await expect(createWorkerSmtpTransport(`smtp://127.0.0.1:${port}`, nodeConnect(port)).send(message)).rejects.toThrow(/ECONNREFUSED/);

    const { createServer } = await import('node:net');
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const silentPort = (silent.address() as { port: number }).port;
    try {
      await expect(createWorkerSmtpTransport(`smtp://127.0.0.1:${silentPort}`, nodeConnect(silentPort), { timeoutMs: 200 }).send(message)).rejects.toThrow(
        'SMTP server did not answer greeting within 0.2 s',
      );
    } finally {
      silent.close();
    }
  });

  it('writes the Reply-To header, and refuses one that would add a header before connecting (decision 058)', async () => {
    sink = await startSmtpSink();
    const log: string[] = [];
    const transport = createWorkerSmtpTransport(`smtp://127.0.0.1:${sink.port}`, nodeConnect(sink.port, log));
    await transport.send({ ...message, replyTo: 'zoe@example.nl' });
    expect(parseMime(sink.messages[0]!.raw).headers.get('reply-to')).toBe('zoe@example.nl');
    expectDelivered(sink.messages[0]!);
    const before = log.length;
    await expect(transport.send({ ...message, replyTo: 'zoe@example.nl\r\nBcc: x@evil.example' })).rejects.toThrow('Invalid Reply-To address');
    expect(log).toHaveLength(before);
    expect(sink.messages).toHaveLength(1);
  });

  it('refuses an address that could smuggle in another command', async () => {
    sink = await startSmtpSink();
    await expect(
      createWorkerSmtpTransport(`smtp://127.0.0.1:${sink.port}`, nodeConnect(sink.port)).send({ ...message, to: 'a@example.nl>\r\nRCPT TO:<b@example.nl' }),
    ).rejects.toThrow('Invalid e-mail address');
    expect(sink.messages).toHaveLength(0);
  });
});
