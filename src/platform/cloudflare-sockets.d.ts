// The Workers TCP socket module, as far as the SMTP client uses it (src/platform/smtp-worker.ts).
// @cloudflare/workers-types declares it only in its global typings, which this project does not load
// (they clash with the DOM library the SPA needs); wrangler's bundler provides the module itself.
declare module 'cloudflare:sockets' {
  export function connect(
    address: string | { hostname: string; port: number },
    options?: { secureTransport?: 'on' | 'off' | 'starttls'; allowHalfOpen?: boolean },
  ): import('./smtp-worker').SmtpSocket;
}
