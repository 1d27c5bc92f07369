import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { parseMime, startSmtpSink, textOf, type SmtpSink } from '../../test/support/smtp-sink';
import { createNodeSmtpTransport } from './smtp-node';

let sink: SmtpSink | undefined;
afterEach(async () => {
  await sink?.stop();
  sink = undefined;
});

const message = { from: 'Kerstactie <noreply@kerst.example>', to: 'klant@example.nl', subject: 'Proef', text: 'Hallo Zoë', attachments: [] };

describe('the nodemailer transport', () => {
  it('resolves once the server accepted the message', async () => {
    sink = await startSmtpSink({ auth: { user: 'kerst', pass: 'geheim' } });
    await createNodeSmtpTransport(sink.url).send(message);
    expect(sink.messages[0]).toMatchObject({ user: 'kerst', from: 'noreply@kerst.example', to: ['klant@example.nl'] });
    expect(textOf(parseMime(sink.messages[0]!.raw)).trimEnd()).toBe('Hallo Zoë');
  });

  it('carries the Reply-To header, and refuses one that would add a header (decision 058)', async () => {
    sink = await startSmtpSink();
    await createNodeSmtpTransport(sink.url).send({ ...message, replyTo: 'zoe@example.nl' });
    expect(parseMime(sink.messages[0]!.raw).headers.get('reply-to')).toBe('zoe@example.nl');
    await expect(createNodeSmtpTransport(sink.url).send({ ...message, replyTo: 'zoe@example.nl\r\nBcc: x@evil.example' })).rejects.toThrow(
      'Invalid Reply-To address',
    );
    expect(sink.messages).toHaveLength(1);
    expect(sink.messages[0]!.raw).not.toContain('evil');
  });

  it('rejects when the server refuses the recipient', async () => {
    sink = await startSmtpSink();
    sink.refuse = { code: 550, message: 'Mailbox unavailable' };
    await expect(createNodeSmtpTransport(sink.url).send(message)).rejects.toThrow(/550/);
  });

  it('gives up on a server that never greets instead of waiting for minutes', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    try {
      const started = Date.now();
      await expect(createNodeSmtpTransport(`smtp://127.0.0.1:${port}`, { greetingTimeout: 300 }).send(message)).rejects.toThrow(/Greeting never received/i);
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      silent.close();
    }
  });
});
