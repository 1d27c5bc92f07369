import { createTransport } from 'nodemailer';
import type SMTPPool from 'nodemailer/lib/smtp-pool';
import type { MailTransport, TransportMessage } from './mail';
import { contentIdOf, replyToAddress } from './mime';

/**
 * The Node mail transport (docs/architecture.md §1): nodemailer over SMTP_URL (`smtp://user:pass@host:587` upgrades
 * with STARTTLS when the server offers it; `smtps://…` is TLS from the start, port 465 by default).
 * `send` resolves once the server accepted the message (250 after DATA), which is what the outbox
 * needs before it marks an invoice sent.
 */
export function createNodeSmtpTransport(smtpUrl: string, overrides: SMTPPool.Options = {}, connections = 4): MailTransport {
  // The URL's host, port, TLS mode and credentials win over these options (nodemailer merges them).
  const transporter = createTransport({
    url: smtpUrl,
    // docs/decisions/053: a pool of `connections` (MAIL_CONNECTIONS) kept open between messages, so a
    // drain does not log in again for every message; the outbox's pacer sets the rate.
    pool: true,
    maxConnections: connections,
    maxMessages: 100,
    // A dead server must not hold a request (sendInvoice delivers at once) for nodemailer's 2 minutes.
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 60_000,
    // Attachments are bytes we pass in; never let a message read a file or a URL.
    disableFileAccess: true,
    disableUrlAccess: true,
    ...overrides,
  });
  return {
    async send(message) {
      await transporter.sendMail({
        from: message.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        ...(message.html ? { html: message.html } : {}),
        ...(message.replyTo ? { replyTo: replyToAddress(message.replyTo) } : {}),
        attachments: message.attachments.map((a) => nodemailerAttachment(a, Boolean(message.html))),
      });
    },
    close() {
      transporter.close();
    },
  };
}

/**
 * An attachment as nodemailer takes it. An inline image (contentId, and an HTML body to show it) gets
 * `cid`, which makes nodemailer put it in multipart/related beside the HTML, like the Worker's MIME
 * writer does; without HTML nothing refers to it and it stays an ordinary attachment there too.
 */
function nodemailerAttachment(attachment: TransportMessage['attachments'][number], hasHtml: boolean) {
  const cid = hasHtml && attachment.contentId ? contentIdOf(attachment.contentId) : '';
  return {
    filename: attachment.filename,
    contentType: attachment.contentType,
    content: Buffer.from(attachment.content),
    ...(cid ? { cid, contentDisposition: 'inline' as const } : {}),
  };
}
