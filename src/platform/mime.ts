/**
 * A small MIME writer (RFC 5322 message format, RFC 2045–2047 MIME) for the Worker's SMTP client, which
 * has no nodemailer. It writes pure 7-bit ASCII with CRLF line ends: every body part is base64 (text
 * included, so any UTF-8 survives any server), non-ASCII header text becomes RFC 2047 encoded words.
 * Node sends through nodemailer and does not use this.
 */
import { encodeBase64, encodeHexLowerCase } from '@oslojs/encoding';

export interface MimeAttachment {
  filename: string;
  contentType: string;
  content: Uint8Array;
  /** An inline image the HTML body shows as `cid:<contentId>`; see buildMimeMessage for where it goes. */
  contentId?: string | undefined;
}

export interface MimeInput {
  from: string;
  to: string;
  subject: string;
  text: string;
  html?: string | undefined;
  /** A bare address (src/platform/mail.ts replyToAddress has checked it). */
  replyTo?: string | undefined;
  attachments: MimeAttachment[];
  date: Date;
  /** Random bytes for boundaries and the Message-ID; injectable so tests get fixed output. */
  random?: (length: number) => Uint8Array;
}

const CRLF = '\r\n';
const encoder = new TextEncoder();

const defaultRandom = (length: number) => crypto.getRandomValues(new Uint8Array(length));

/** RFC 2045 §6.8: base64 body lines are at most 76 characters. */
export function base64Lines(bytes: Uint8Array): string {
  const flat = encodeBase64(bytes);
  const lines: string[] = [];
  for (let i = 0; i < flat.length; i += 76) lines.push(flat.slice(i, i + 76));
  return lines.join(CRLF);
}

const isPrintableAscii = (text: string) => /^[\x20-\x7e]*$/.test(text);

/**
 * RFC 2047 'B' encoded words for a header value that is not plain ASCII, each at most 75 characters
 * and never splitting a character's UTF-8 bytes, joined by folding whitespace.
 */
export function encodeHeaderText(text: string): string {
  if (isPrintableAscii(text) && text.length <= 900) return text;
  const words: string[] = [];
  let chunk: number[] = [];
  // 45 bytes give 60 base64 characters: '=?UTF-8?B?' + 60 + '?=' is 72.
  for (const char of text) {
    const bytes = encoder.encode(char);
    if (chunk.length + bytes.length > 45) {
      words.push(`=?UTF-8?B?${encodeBase64(Uint8Array.from(chunk))}?=`);
      chunk = [];
    }
    chunk.push(...bytes);
  }
  if (chunk.length > 0) words.push(`=?UTF-8?B?${encodeBase64(Uint8Array.from(chunk))}?=`);
  return words.join(`${CRLF} `);
}

/** The bare address of a mailbox: 'Kerstactie <noreply@example.nl>' → 'noreply@example.nl'. */
export function addressOf(mailbox: string): string {
  const angle = /<([^<>\s]+)>\s*$/.exec(mailbox);
  return (angle ? angle[1]! : mailbox).trim();
}

/** One address, nothing else: no display name, no list, no whitespace (so no line break), no brackets. */
const SINGLE_ADDRESS = /^[^\s<>@,;:"()[\]\\]+@[^\s<>@,;:"()[\]\\]+$/;

export function isPlainAddress(value: string): boolean {
  return SINGLE_ADDRESS.test(value);
}

/**
 * A Reply-To given by a feature (a visitor's e-mail) or read from the outbox: refused unless it is one
 * plain address, so no text typed on a form can add a header or a recipient (docs/decisions/058).
 */
export function replyToAddress(value: string): string {
  if (!isPlainAddress(value)) throw new Error(`Invalid Reply-To address: ${JSON.stringify(value.slice(0, 200))}`);
  return value;
}

/** A mailbox for a header: the display name quoted or encoded as needed, the address as is. */
export function formatMailbox(mailbox: string): string {
  const address = addressOf(mailbox);
  const name = mailbox
    .replace(/<[^<>]*>\s*$/, '')
    .trim()
    .replace(/^"(.*)"$/, '$1');
  if (name === '' || name === address) return address;
  if (!isPrintableAscii(name)) return `${encodeHeaderText(name)} <${address}>`;
  // RFC 5322 specials force a quoted string.
  const display = /[()<>[\]:;@\\,."]/.test(name) ? `"${name.replace(/(["\\])/g, '\\$1')}"` : name;
  return `${display} <${address}>`;
}

/** RFC 5322 date: 'Sun, 22 Nov 2026 10:00:00 +0000'. */
export function formatMailDate(date: Date): string {
  return date.toUTCString().replace(/GMT$/, '+0000');
}

/** A filename parameter: quoted when ASCII, RFC 2231 UTF-8 percent-encoding otherwise. */
function filenameParam(param: string, filename: string): string {
  const clean = filename.replace(/[\r\n"\\]/g, '_');
  if (isPrintableAscii(clean)) return `${param}="${clean}"`;
  const encoded = Array.from(encoder.encode(clean), (b) =>
    /[A-Za-z0-9.!~*'()_-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
  ).join('');
  return `${param}*=UTF-8''${encoded}`;
}

/** Text in its canonical form (CRLF line ends, RFC 2045 §6.8), UTF-8, base64. */
function textPart(contentType: string, text: string): string {
  return [
    `Content-Type: ${contentType}; charset=utf-8`,
    'Content-Transfer-Encoding: base64',
    '',
    base64Lines(encoder.encode(text.replace(/\r?\n/g, CRLF))),
  ].join(CRLF);
}

/**
 * The id inside `Content-ID: <…>`: only what RFC 5322 allows in a msg-id's parts (atext, '.', '@'), so
 * nothing can end the header or the angle brackets. Empty when nothing usable is left.
 */
export function contentIdOf(contentId: string): string {
  return contentId.replace(/[^A-Za-z0-9!#$%&'*+/=?^_`{|}~.@-]/g, '');
}

function attachmentPart(attachment: MimeAttachment, inlineId?: string): string {
  const type = attachment.contentType.replace(/[\r\n;]/g, '') || 'application/octet-stream';
  return [
    `Content-Type: ${type}; ${filenameParam('name', attachment.filename)}`,
    'Content-Transfer-Encoding: base64',
    ...(inlineId ? [`Content-ID: <${inlineId}>`] : []),
    `Content-Disposition: ${inlineId ? 'inline' : 'attachment'}; ${filenameParam('filename', attachment.filename)}`,
    '',
    base64Lines(attachment.content),
  ].join(CRLF);
}

/** Parts joined under a boundary (base64 never holds '=_', so the boundary cannot occur in a part). */
function multipart(subtype: string, boundary: string, parts: string[]): { header: string; body: string } {
  return {
    header: `multipart/${subtype}; boundary="${boundary}"`,
    body: [...parts.map((part) => `--${boundary}${CRLF}${part}${CRLF}`), `--${boundary}--`].join(''),
  };
}

/**
 * The whole message: headers, a blank line, the body. Text only → one text/plain part; with HTML →
 * multipart/alternative; with inline images → multipart/related around that and the images (RFC 2387),
 * so mail programs show them in the HTML instead of as files; with other attachments → multipart/mixed
 * around all of it. Without HTML nothing can refer to an inline image, so it becomes a plain attachment.
 */
export function buildMimeMessage(input: MimeInput): string {
  const random = input.random ?? defaultRandom;
  const boundary = (kind: string) => `=_${kind}_${encodeHexLowerCase(random(12))}`;
  const domain = addressOf(input.from).split('@')[1] || 'localhost';

  const inlineIdOf = (attachment: MimeAttachment) => (input.html && attachment.contentId ? contentIdOf(attachment.contentId) : '');
  const inline = input.attachments.filter((a) => inlineIdOf(a) !== '');
  const attached = input.attachments.filter((a) => inlineIdOf(a) === '');

  let content: string = textPart('text/plain', input.text);
  let contentType = 'text/plain';
  if (input.html) {
    const alt = multipart('alternative', boundary('alt'), [content, textPart('text/html', input.html)]);
    content = `Content-Type: ${alt.header}${CRLF}${CRLF}${alt.body}`;
    contentType = 'multipart/alternative';
  }
  if (inline.length > 0) {
    const related = multipart('related', boundary('rel'), [content, ...inline.map((a) => attachmentPart(a, inlineIdOf(a)))]);
    // RFC 2387 asks for the type of the root part (the first) as a parameter.
    content = `Content-Type: ${related.header}; type="${contentType}"${CRLF}${CRLF}${related.body}`;
  }
  if (attached.length > 0) {
    const mixed = multipart('mixed', boundary('mix'), [content, ...attached.map((a) => attachmentPart(a))]);
    content = `Content-Type: ${mixed.header}${CRLF}${CRLF}${mixed.body}`;
  }

  const headers = [
    `From: ${formatMailbox(input.from)}`,
    `To: ${formatMailbox(input.to)}`,
    ...(input.replyTo ? [`Reply-To: ${formatMailbox(input.replyTo)}`] : []),
    `Subject: ${encodeHeaderText(input.subject.replace(/[\r\n]+/g, ' '))}`,
    `Date: ${formatMailDate(input.date)}`,
    `Message-ID: <${encodeHexLowerCase(random(16))}@${domain}>`,
    'MIME-Version: 1.0',
  ];
  // `content` starts with its own Content-Type (and encoding) lines, which become top-level headers.
  return `${headers.join(CRLF)}${CRLF}${content}${CRLF}`;
}
