import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startSmtpSink, type SmtpSink } from './smtp-sink';

/**
 * The SMTP sink for tests that run inside workerd: the Worker sends through `cloudflare:sockets` to the
 * sink's SMTP port, and the tests (which cannot read this process's memory) ask a small HTTP side door
 * what arrived, or stop and start the SMTP listener:
 *   GET /messages → [{ to, raw }]    POST /stop    POST /start
 */
export interface MailSinkWithHttp {
  smtp: SmtpSink;
  httpUrl: string;
  close(): Promise<void>;
}

export async function startMailSinkWithHttp(): Promise<MailSinkWithHttp> {
  const smtp = await startSmtpSink({ unref: true });
  const server: Server = createServer((request, response) => {
    const answer = (body: unknown) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (request.method === 'GET' && request.url === '/messages') return answer(smtp.messages.map((m) => ({ to: m.to, raw: m.raw })));
    if (request.method === 'POST' && request.url === '/stop') return void smtp.stop().then(() => answer({ stopped: true }));
    if (request.method === 'POST' && request.url === '/start') return void smtp.start().then(() => answer({ started: true }));
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  // The vitest process must be able to end while these listen.
  server.unref();
  return {
    smtp,
    httpUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      await smtp.stop();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
