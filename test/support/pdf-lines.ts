import { getDocumentProxy } from 'unpdf';

/**
 * The printed lines of a PDF's pages, top to bottom (PDF.js through `unpdf`): the text pieces that share a
 * baseline, left to right, joined with a space. A test can tell a line that holds a whole IBAN from one
 * that broke it (PDF.js reads a no-break space back as a plain space).
 */
export async function pdfLines(pdf: Uint8Array): Promise<string[]> {
  const document = await getDocumentProxy(new Uint8Array(pdf));
  const lines: string[] = [];
  for (let number = 1; number <= document.numPages; number++) {
    const content = await (await document.getPage(number)).getTextContent();
    const byBaseline = new Map<number, { x: number; text: string }[]>();
    for (const item of content.items) {
      if (!('str' in item) || item.str.trim() === '') continue;
      const [, , , , x = 0, y = 0] = item.transform as number[];
      const key = Math.round(y * 10) / 10;
      byBaseline.set(key, [...(byBaseline.get(key) ?? []), { x, text: item.str }]);
    }
    for (const [, pieces] of [...byBaseline].sort(([a], [b]) => b - a)) {
      lines.push(
        pieces
          .sort((a, b) => a.x - b.x)
          .map((piece) => piece.text)
          .join(' '),
      );
    }
  }
  return lines;
}
