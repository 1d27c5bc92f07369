import { rgb, type PDFFont, type PDFPage } from 'pdf-lib';

/**
 * Text on a PDF page for the club's documents (the invoice, the delivery list): A4 with their margins and
 * colours, and text the standard fonts can draw, whatever a customer typed. pdf-lib is plain JavaScript,
 * so the same code runs on Node and the Worker.
 */
export const PAGE_WIDTH = 595.28;
export const PAGE_HEIGHT = 841.89;
export const LEFT = 50;
export const RIGHT = PAGE_WIDTH - 50;
export const INK = rgb(0.1, 0.1, 0.12);
export const MUTED = rgb(0.4, 0.4, 0.45);
export const ACCENT = rgb(0.1, 0.3, 0.65);
export const RULE = rgb(0.8, 0.8, 0.84);

/** Letters with a stroke that Unicode does not decompose into a base letter plus an accent. */
const LETTERS_WITHOUT_DECOMPOSITION: Record<string, string> = { Ł: 'L', ł: 'l', Đ: 'D', đ: 'd', Ħ: 'H', ħ: 'h', ı: 'i' };

interface TextOptions {
  size?: number;
  bold?: boolean;
  color?: ReturnType<typeof rgb>;
  /** 'right' puts the text's right edge at x. */
  align?: 'left' | 'right';
}

/** Draws on one page; keeps the fonts and the set of characters they can encode. */
export class Writer {
  private readonly charset: Set<number>;

  constructor(
    private readonly page: PDFPage,
    private readonly regular: PDFFont,
    private readonly bold: PDFFont,
  ) {
    this.charset = new Set(regular.getCharacterSet());
  }

  /**
   * Text the standard font can draw: line breaks become spaces, an accented letter outside WinAnsi
   * loses its accent (ł → l, ő → o), and anything else becomes '?', instead of pdf-lib throwing on
   * a customer's name.
   */
  encodable(text: string): string {
    let out = '';
    for (const char of text.replace(/[\r\n\t]+/g, ' ')) {
      const code = char.codePointAt(0)!;
      if (this.charset.has(code)) {
        out += char;
        continue;
      }
      const base = (LETTERS_WITHOUT_DECOMPOSITION[char] ?? char).normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
      out += base !== '' && [...base].every((c) => this.charset.has(c.codePointAt(0)!)) ? base : '?';
    }
    return out;
  }

  width(text: string, size: number, bold = false): number {
    return (bold ? this.bold : this.regular).widthOfTextAtSize(this.encodable(text), size);
  }

  text(value: string, x: number, y: number, options: TextOptions = {}): void {
    const size = options.size ?? 10;
    const font = options.bold ? this.bold : this.regular;
    const text = this.encodable(value);
    const left = options.align === 'right' ? x - font.widthOfTextAtSize(text, size) : x;
    this.page.drawText(text, { x: left, y, size, font, color: options.color ?? INK });
  }

  /** Word-wraps `value` into lines no wider than `maxWidth`; returns the y below the last line. */
  paragraph(value: string, x: number, y: number, maxWidth: number, options: TextOptions & { lineHeight?: number } = {}): number {
    const size = options.size ?? 10;
    const lineHeight = options.lineHeight ?? size * 1.4;
    let line = '';
    let at = y;
    for (const word of this.encodable(value).split(/ +/)) {
      const candidate = line === '' ? word : `${line} ${word}`;
      if (line !== '' && this.width(candidate, size, options.bold) > maxWidth) {
        this.text(line, x, at, options);
        at -= lineHeight;
        line = word;
      } else {
        line = candidate;
      }
    }
    if (line !== '') {
      this.text(line, x, at, options);
      at -= lineHeight;
    }
    return at;
  }

  rule(y: number, from = LEFT, to = RIGHT): void {
    this.page.drawLine({ start: { x: from, y }, end: { x: to, y }, thickness: 0.75, color: RULE });
  }
}
