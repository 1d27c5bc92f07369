import { rgb, type PDFFont, type PDFPage } from 'pdf-lib';

/**
 * Text on a PDF page for the club's documents (the invoice, the credit note, the delivery list): A4 with
 * their margins and colours, set in the embedded font of pdf-font.ts, whatever a customer typed. pdf-lib
 * is plain JavaScript, so the same code runs on Node and the Worker.
 */
export const PAGE_WIDTH = 595.28;
export const PAGE_HEIGHT = 841.89;
export const LEFT = 50;
export const RIGHT = PAGE_WIDTH - 50;
export const INK = rgb(0.1, 0.1, 0.12);
export const MUTED = rgb(0.4, 0.4, 0.45);
export const ACCENT = rgb(0.1, 0.3, 0.65);
export const RULE = rgb(0.8, 0.8, 0.84);

/**
 * Characters the font lacks that a document leaves out (docs/decisions/059): emoji with their skin tones
 * and flags, and combining marks that did not join a letter. No small font has the emoji, and a '?' in a
 * name reads as an error.
 */
const LEFT_OUT = /[\p{Extended_Pictographic}\p{Emoji_Modifier}\p{Regional_Indicator}\p{M}]/u;
/** Invisible characters, left out even where the font has a glyph for them (the soft hyphen's is a hyphen). */
const INVISIBLE = /[\p{Cf}\p{Cc}]/u;
const SOFT_HYPHEN = '\u00ad';
/** Spaces that keep their words together; the rest of Unicode's spaces become a plain space. */
const NO_BREAK_SPACES = new Set(['\u00a0', '\u2007', '\u202f']);

interface TextOptions {
  size?: number;
  bold?: boolean;
  color?: ReturnType<typeof rgb>;
  /** 'right' puts the text's right edge at x. */
  align?: 'left' | 'right';
}

/** Draws on one page; keeps the fonts and the set of characters they both have. */
export class Writer {
  private readonly charset: Set<number>;

  constructor(
    private readonly page: PDFPage,
    private readonly regular: PDFFont,
    private readonly bold: PDFFont,
  ) {
    const inBold = new Set(bold.getCharacterSet());
    this.charset = new Set(regular.getCharacterSet().filter((codePoint) => inBold.has(codePoint)));
  }

  private has(text: string): boolean {
    for (const char of text) if (!this.charset.has(char.codePointAt(0)!)) return false;
    return true;
  }

  /**
   * A letter the font lacks, as near as the font has it: without its outermost accents (Vietnamese ễ → ê),
   * or its compatibility form (ﬁ → fi); '?' when neither is there (a letter of another script).
   */
  private nearest(char: string): string {
    const parts = [...char.normalize('NFD')];
    while (parts.length > 1) {
      parts.pop();
      const shorter = parts.join('').normalize('NFC');
      if (this.has(shorter)) return shorter;
    }
    const compatible = char.normalize('NFKD').replace(/\p{M}/gu, '');
    return compatible !== '' && this.has(compatible) ? compatible : '?';
  }

  /**
   * The text as the document prints it: line breaks become spaces, letters typed as letter plus accent
   * are joined (NFC), and what the font lacks is left out or replaced (LEFT_OUT, `nearest`), instead of
   * pdf-lib throwing on a customer's name.
   */
  printable(text: string): string {
    let out = '';
    let leftOut = false;
    for (const char of text.replace(/[\r\n\t]+/g, ' ').normalize('NFC')) {
      // The soft hyphen is the one invisible character the font has a glyph for.
      if (char !== SOFT_HYPHEN && this.charset.has(char.codePointAt(0)!)) out += char;
      else if (INVISIBLE.test(char)) leftOut = true;
      else if (/\p{Z}/u.test(char)) out += NO_BREAK_SPACES.has(char) ? '\u00a0' : ' ';
      else if (LEFT_OUT.test(char)) leftOut = true;
      else out += this.nearest(char);
    }
    // 'Jan 🎅 de Vries' prints as 'Jan de Vries'.
    return leftOut ? out.replace(/ {2,}/g, ' ').trim() : out;
  }

  width(text: string, size: number, bold = false): number {
    return (bold ? this.bold : this.regular).widthOfTextAtSize(this.printable(text), size);
  }

  text(value: string, x: number, y: number, options: TextOptions = {}): void {
    const size = options.size ?? 10;
    const font = options.bold ? this.bold : this.regular;
    const text = this.printable(value);
    const left = options.align === 'right' ? x - font.widthOfTextAtSize(text, size) : x;
    this.page.drawText(text, { x: left, y, size, font, color: options.color ?? INK });
  }

  /** Word-wraps `value` into lines no wider than `maxWidth`; returns the y below the last line. */
  paragraph(value: string, x: number, y: number, maxWidth: number, options: TextOptions & { lineHeight?: number } = {}): number {
    const size = options.size ?? 10;
    const lineHeight = options.lineHeight ?? size * 1.4;
    let line = '';
    let at = y;
    for (const word of this.printable(value).split(/ +/)) {
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
