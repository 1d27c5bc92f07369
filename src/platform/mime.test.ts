import { describe, expect, it } from 'vitest';
import { attachmentsOf, decodeHeader, parseMime, textOf } from '../../test/support/smtp-sink';
import { addressOf, base64Lines, buildMimeMessage, contentIdOf, encodeHeaderText, formatMailbox, formatMailDate, isPlainAddress, replyToAddress } from './mime';

const fixedRandom = (length: number) => new Uint8Array(length).fill(0xab);
const pdfBytes = new Uint8Array(5000).map((_, i) => (i * 37) % 256);
const pngBytes = new Uint8Array(700).map((_, i) => (i * 11 + 3) % 256);

function message(overrides: Partial<Parameters<typeof buildMimeMessage>[0]> = {}) {
  return buildMimeMessage({
    from: 'Kerstactie <noreply@kerst.example>',
    to: 'klant@example.nl',
    subject: 'Factuur F2026-0001 – kerstactie',
    text: 'Beste Zoë,\n\nIn de bijlage vind je de factuur.\n.\nGroet',
    attachments: [{ filename: 'Factuur-F2026-0001.pdf', contentType: 'application/pdf', content: pdfBytes }],
    date: new Date('2026-11-22T10:00:00.000Z'),
    random: fixedRandom,
    ...overrides,
  });
}

describe('replyToAddress', () => {
  it('passes one plain address and refuses anything that could carry more', () => {
    expect(replyToAddress('zoe.de-vries+kerst@example.nl')).toBe('zoe.de-vries+kerst@example.nl');
    for (const bad of [
      'zoe@example.nl\r\nBcc: x@evil.example',
      'zoe@example.nl\n',
      'a@b.nl, c@d.nl',
      'Zoë <zoe@example.nl>',
      'zoe',
      '@example.nl',
      'a@b@c.nl',
      '',
    ]) {
      expect(isPlainAddress(bad), JSON.stringify(bad)).toBe(false);
      expect(() => replyToAddress(bad)).toThrow('Invalid Reply-To address');
    }
  });
});

describe('buildMimeMessage', () => {
  it('writes 7-bit ASCII with CRLF line ends and no line over 998 characters', () => {
    const raw = message();
    expect(/^\p{ASCII}*$/u.test(raw)).toBe(true);
    expect(raw.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    expect(Math.max(...raw.split('\r\n').map((l) => l.length))).toBeLessThanOrEqual(998);
  });

  it('carries the headers, the UTF-8 text and the attachment byte for byte', () => {
    const parsed = parseMime(message());
    expect(parsed.headers.get('from')).toBe('Kerstactie <noreply@kerst.example>');
    expect(parsed.headers.get('to')).toBe('klant@example.nl');
    expect(decodeHeader(parsed.headers.get('subject')!)).toBe('Factuur F2026-0001 – kerstactie');
    expect(parsed.headers.get('date')).toBe('Sun, 22 Nov 2026 10:00:00 +0000');
    expect(parsed.headers.get('message-id')).toBe(`<${'ab'.repeat(16)}@kerst.example>`);
    expect(parsed.headers.get('mime-version')).toBe('1.0');
    expect(parsed.type).toBe('multipart/mixed');
    expect(textOf(parsed)).toBe('Beste Zoë,\r\n\r\nIn de bijlage vind je de factuur.\r\n.\r\nGroet');
    const [attachment] = attachmentsOf(parsed);
    expect(attachment?.filename).toBe('Factuur-F2026-0001.pdf');
    expect(attachment?.type).toBe('application/pdf');
    expect(Buffer.from(attachment!.content).equals(Buffer.from(pdfBytes))).toBe(true);
  });

  it('writes Reply-To after To only when the message has one (decision 058)', () => {
    const headers = (raw: string) => raw.slice(0, raw.indexOf('\r\n\r\n')).split('\r\n');
    expect(headers(message({ replyTo: 'penningmeester@tafelronde.nl' })).slice(0, 3)).toEqual([
      'From: Kerstactie <noreply@kerst.example>',
      'To: klant@example.nl',
      'Reply-To: penningmeester@tafelronde.nl',
    ]);
    expect(headers(message()).some((line) => /^reply-to:/i.test(line))).toBe(false);
  });

  it('sends a plain text message as a single part', () => {
    const parsed = parseMime(message({ attachments: [] }));
    expect(parsed.type).toBe('text/plain');
    expect(parsed.params.get('charset')).toBe('utf-8');
    expect(textOf(parsed)).toContain('Beste Zoë');
  });

  it('puts text and HTML in multipart/alternative inside the mixed message', () => {
    const parsed = parseMime(message({ html: '<p>Beste Zoë</p>' }));
    expect(parsed.parts.map((p) => p.type)).toEqual(['multipart/alternative', 'application/pdf']);
    expect(parsed.parts[0]!.parts.map((p) => p.type)).toEqual(['text/plain', 'text/html']);
    expect(new TextDecoder().decode(parsed.parts[0]!.parts[1]!.body)).toBe('<p>Beste Zoë</p>');
  });

  it('puts an inline image beside the HTML in multipart/related, and other attachments around it in mixed', () => {
    const raw = message({
      html: '<p>Beste Zoë</p><img src="cid:betaal-qr" alt="Betaal-QR">',
      attachments: [
        { filename: 'Factuur-F2026-0001.pdf', contentType: 'application/pdf', content: pdfBytes },
        { filename: 'betaal-qr.png', contentType: 'image/png', content: pngBytes, contentId: 'betaal-qr' },
      ],
    });
    expect(/^\p{ASCII}*$/u.test(raw)).toBe(true);
    expect(Math.max(...raw.split('\r\n').map((l) => l.length))).toBeLessThanOrEqual(998);
    const parsed = parseMime(raw);
    expect(parsed.type).toBe('multipart/mixed');
    expect(parsed.parts.map((p) => p.type)).toEqual(['multipart/related', 'application/pdf']);
    const related = parsed.parts[0]!;
    expect(related.params.get('type')).toBe('multipart/alternative');
    expect(related.parts.map((p) => p.type)).toEqual(['multipart/alternative', 'image/png']);
    expect(related.parts[0]!.parts.map((p) => p.type)).toEqual(['text/plain', 'text/html']);
    expect(new TextDecoder().decode(related.parts[0]!.parts[1]!.body)).toBe('<p>Beste Zoë</p><img src="cid:betaal-qr" alt="Betaal-QR">');
    const image = related.parts[1]!;
    expect(image.headers.get('content-id')).toBe('<betaal-qr>');
    expect(image.headers.get('content-disposition')).toBe('inline; filename="betaal-qr.png"');
    expect(image.headers.get('content-type')).toBe('image/png; name="betaal-qr.png"');
    expect(Buffer.from(image.body).equals(Buffer.from(pngBytes))).toBe(true);
    // Only the PDF is offered as a file to save.
    expect(attachmentsOf(parsed).map((a) => a.filename)).toEqual(['Factuur-F2026-0001.pdf']);
    expect(textOf(parsed)).toBe('Beste Zoë,\r\n\r\nIn de bijlage vind je de factuur.\r\n.\r\nGroet');
  });

  it('makes multipart/related the top level when the inline image is the only attachment', () => {
    const parsed = parseMime(
      message({
        html: '<img src="cid:betaal-qr">',
        attachments: [{ filename: 'betaal-qr.png', contentType: 'image/png', content: pngBytes, contentId: 'betaal-qr' }],
      }),
    );
    expect(parsed.type).toBe('multipart/related');
    expect(parsed.params.get('type')).toBe('multipart/alternative');
    expect(parsed.parts.map((p) => p.type)).toEqual(['multipart/alternative', 'image/png']);
    expect(attachmentsOf(parsed)).toEqual([]);
  });

  it('sends an inline image as a plain attachment when there is no HTML to show it', () => {
    const parsed = parseMime(message({ attachments: [{ filename: 'betaal-qr.png', contentType: 'image/png', content: pngBytes, contentId: 'betaal-qr' }] }));
    expect(parsed.type).toBe('multipart/mixed');
    expect(parsed.parts.map((p) => p.type)).toEqual(['text/plain', 'image/png']);
    expect(parsed.parts[1]!.headers.has('content-id')).toBe(false);
    expect(attachmentsOf(parsed).map((a) => a.filename)).toEqual(['betaal-qr.png']);
  });

  it('keeps a Content-ID to the characters a message id allows, so it cannot add headers', () => {
    const raw = message({
      html: '<img src="cid:qr">',
      attachments: [{ filename: 'qr.png', contentType: 'image/png', content: pngBytes, contentId: 'qr>\r\nBcc: x@example.nl' }],
    });
    expect(raw).not.toMatch(/^Bcc:/m);
    expect(parseMime(raw).parts[1]!.headers.get('content-id')).toBe('<qrBccx@example.nl>');
  });

  it('encodes a non-ASCII attachment name the RFC 2231 way', () => {
    const parsed = parseMime(message({ attachments: [{ filename: 'Overzicht café.pdf', contentType: 'application/pdf', content: pdfBytes }] }));
    expect(attachmentsOf(parsed)[0]?.filename).toBe('Overzicht café.pdf');
  });

  it('keeps line breaks of a subject out of the headers', () => {
    const raw = message({ subject: 'Hallo\r\nBcc: iemand@example.nl' });
    expect(raw).not.toMatch(/^Bcc:/m);
    expect(parseMime(raw).headers.get('subject')).toBe('Hallo Bcc: iemand@example.nl');
  });
});

describe('header helpers', () => {
  it('leaves plain ASCII as it is and encodes the rest in words of at most 75 characters', () => {
    expect(encodeHeaderText('Factuur F2026-0001')).toBe('Factuur F2026-0001');
    const long = 'Bevestiging van je bestelling – Zoë, Émile en Łukasz '.repeat(4);
    const encoded = encodeHeaderText(long);
    for (const word of encoded.split('\r\n ')) expect(word.length).toBeLessThanOrEqual(75);
    expect(decodeHeader(encoded)).toBe(long);
  });

  it('formats mailboxes', () => {
    expect(formatMailbox('noreply@example.nl')).toBe('noreply@example.nl');
    expect(formatMailbox('Kerstactie <noreply@example.nl>')).toBe('Kerstactie <noreply@example.nl>');
    expect(formatMailbox('Ronde Tafel 144, Harlingen <a@example.nl>')).toBe('"Ronde Tafel 144, Harlingen" <a@example.nl>');
    expect(decodeHeader(formatMailbox('Zoë <z@example.nl>'))).toBe('Zoë <z@example.nl>');
    expect(addressOf('"Kerst, actie" <k@example.nl>')).toBe('k@example.nl');
  });

  it('keeps a content id to atext, dots and @', () => {
    expect(contentIdOf('betaal-qr')).toBe('betaal-qr');
    expect(contentIdOf('qr.1@kerstactie.example')).toBe('qr.1@kerstactie.example');
    expect(contentIdOf('<a b>\r\n"c";')).toBe('abc');
  });

  it('writes RFC 5322 dates and 76-character base64 lines', () => {
    expect(formatMailDate(new Date('2026-12-01T08:05:09.000Z'))).toBe('Tue, 01 Dec 2026 08:05:09 +0000');
    const lines = base64Lines(new Uint8Array(200)).split('\r\n');
    expect(lines.slice(0, -1).every((l) => l.length === 76)).toBe(true);
  });
});
